import { describe, expectTypeOf, it } from 'vitest';
import type {
  Grading,
  RecordsPage,
  Paginated,
  RiskEngineeringClientOptions,
  RiskLocation,
  createRiskEngineeringClient,
  paths,
} from './index.js';

// These names are public: renaming one in the spec must break this file (checked by `tsc`).
describe('risk engineering types', () => {
  it('keeps Grading and RiskLocation open records', () => {
    expectTypeOf<Grading>().toEqualTypeOf<{ [key: string]: unknown }>();
    expectTypeOf<RiskLocation>().toEqualTypeOf<{ [key: string]: unknown }>();
  });

  it('keeps the upstream capitalisation of the paths', () => {
    type Gradings = paths['/open/portal-api/riskengineering/Gradings']['get'];
    type Locations = paths['/open/portal-api/riskengineering/Locations']['get'];
    expectTypeOf<Gradings['responses'][200]['content']['application/json']>().toEqualTypeOf<
      Grading[]
    >();
    expectTypeOf<Locations['responses'][200]['content']['application/json']>().toEqualTypeOf<
      RiskLocation[]
    >();
    expectTypeOf<NonNullable<Locations['parameters']['query']>>().toHaveProperty('offset');
  });
});

describe('risk engineering client types', () => {
  type Client = ReturnType<typeof createRiskEngineeringClient>;

  it('types gradings and locations by their own records', () => {
    expectTypeOf<Client['gradings']['list']>().returns.toEqualTypeOf<Paginated<Grading>>();
    expectTypeOf<Client['gradings']['page']>().returns.resolves.toEqualTypeOf<
      RecordsPage<Grading>
    >();
    expectTypeOf<Client['locations']['list']>().returns.toEqualTypeOf<Paginated<RiskLocation>>();
    type PageOptions = NonNullable<Parameters<Client['locations']['page']>[0]>;
    expectTypeOf<PageOptions['modifiedSince']>().toEqualTypeOf<string | Date | undefined>();
    expectTypeOf<PageOptions['limit']>().toEqualTypeOf<number | undefined>();
  });

  it('takes the same options as the exposure client, key pair included', () => {
    const options: RiskEngineeringClientOptions = {
      baseUrl: 'https://api.example.com',
      tokenUrl: 'https://auth.example.com/login/connect/token',
      credentials: { clientId: 'id', clientSecret: 's', subscriptionKeys: { primary: 'k' } },
      pageSize: 1024,
      prefetch: 8,
    };
    expectTypeOf(options.credentials.subscriptionKeys.secondary).toEqualTypeOf<
      string | undefined
    >();
    const wrong: RiskEngineeringClientOptions = {
      ...options,
      // @ts-expect-error the page size is a number
      pageSize: '1024',
    };
    void wrong;
  });

  it('keeps the raw client typed by the spec', () => {
    const check = (raw: Client['raw']) => {
      void raw.GET('/open/portal-api/riskengineering/Gradings', {
        params: { query: { modifiedSince: '2026-01-31' } },
      });
      // @ts-expect-error the spec keeps the upstream capitalisation
      void raw.GET('/open/portal-api/riskengineering/gradings');
    };
    void check;
  });
});
