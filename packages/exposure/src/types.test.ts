import { describe, expectTypeOf, it } from 'vitest';
import type {
  CoverageValues,
  ExposureClientOptions,
  Location,
  Paginated,
  RecordsPage,
  StatementOfValues,
  StatementOfValuesLocation,
  StatementOfValuesReceipt,
  createExposureClient,
  paths,
} from './index.js';
import type {
  StatementOfValuesValidation,
  ValidationProblem,
  validateStatementOfValues,
} from './statement-of-values.js';

// These names are public: renaming one in the spec must break this file (checked by `tsc`).
describe('exposure types', () => {
  it('keeps Location an open record, so adding upstream fields later is not breaking', () => {
    expectTypeOf<Location>().toEqualTypeOf<{ [key: string]: unknown }>();
  });

  it('types the locations read as an array of Location with the paging parameters', () => {
    type Read = paths['/open/portal-api/exposure/locations']['get'];
    expectTypeOf<Read['responses'][200]['content']['application/json']>().toEqualTypeOf<
      Location[]
    >();
    expectTypeOf<NonNullable<Read['parameters']['query']>>().toEqualTypeOf<{
      modifiedSince?: string;
      limit?: number;
      offset?: number;
    }>();
  });

  it('requires currency and locations on a Statement of Values', () => {
    expectTypeOf<StatementOfValues['currency']>().toEqualTypeOf<string>();
    expectTypeOf<StatementOfValues['locations']>().toEqualTypeOf<StatementOfValuesLocation[]>();
    expectTypeOf<StatementOfValuesLocation['values']>().toEqualTypeOf<CoverageValues>();
    expectTypeOf<CoverageValues['buildings']>().toEqualTypeOf<number | undefined>();
  });
});

describe('exposure client types', () => {
  type Client = ReturnType<typeof createExposureClient>;

  it('names the options of issue 6 and types credentials with the key pair', () => {
    expectTypeOf<ExposureClientOptions['baseUrl']>().toEqualTypeOf<string>();
    expectTypeOf<ExposureClientOptions['tokenUrl']>().toEqualTypeOf<string>();
    expectTypeOf<ExposureClientOptions['credentials']['subscriptionKeys']>().toMatchTypeOf<{
      primary: string;
      secondary?: string | undefined;
    }>();
    expectTypeOf<ExposureClientOptions['prefetch']>().toEqualTypeOf<number | undefined>();
    const options: ExposureClientOptions = {
      baseUrl: 'https://api.example.com',
      tokenUrl: 'https://auth.example.com/login/connect/token',
      credentials: { clientId: 'id', clientSecret: 'secret', subscriptionKeys: { primary: 'k' } },
    };
    const withoutKeys: ExposureClientOptions = {
      ...options,
      // @ts-expect-error the subscription keys are required for this service
      credentials: { clientId: 'id', clientSecret: 's' },
    };
    // @ts-expect-error the token URL is required
    const withoutTokenUrl: ExposureClientOptions = {
      baseUrl: options.baseUrl,
      credentials: options.credentials,
    };
    void [withoutKeys, withoutTokenUrl];
  });

  it('types list and page as Location records, with the query parameters of the spec', () => {
    type ListOptions = NonNullable<Parameters<Client['locations']['list']>[0]>;
    type PageOptions = NonNullable<Parameters<Client['locations']['page']>[0]>;
    expectTypeOf<Client['locations']['list']>().returns.toEqualTypeOf<Paginated<Location>>();
    expectTypeOf<Client['locations']['page']>().returns.resolves.toEqualTypeOf<
      RecordsPage<Location>
    >();
    expectTypeOf<ListOptions['modifiedSince']>().toEqualTypeOf<Date | string | undefined>();
    expectTypeOf<PageOptions>().toHaveProperty('offset');
    // @ts-expect-error `limit` is a page option; list takes `pageSize`
    const listOptions: ListOptions = { limit: 10 };
    // @ts-expect-error not a query parameter of the spec
    const unknown: PageOptions = { region: 'EU' };
    void [listOptions, unknown];
  });

  it('types the Statement of Values operations', () => {
    expectTypeOf<Client['statementOfValues']['submit']>()
      .parameter(0)
      .toEqualTypeOf<StatementOfValues>();
    expectTypeOf<
      Client['statementOfValues']['submit']
    >().returns.resolves.toEqualTypeOf<StatementOfValuesReceipt>();
    expectTypeOf<typeof validateStatementOfValues>().parameter(0).toBeUnknown();
    expectTypeOf<
      StatementOfValuesValidation['problems'][number]
    >().toEqualTypeOf<ValidationProblem>();
  });

  it('keeps the raw client typed by the spec, tracing headers optional', () => {
    expectTypeOf<Client['raw']['GET']>().toBeFunction();
    const check = (raw: Client['raw']) => {
      // @ts-expect-error not a path of the exposure spec
      void raw.GET('/open/portal-api/riskengineering/Gradings');
      void raw.GET('/open/portal-api/exposure/locations', { params: { query: { limit: 10 } } });
    };
    void check;
  });
});
