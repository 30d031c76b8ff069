import { describe, expectTypeOf, it } from 'vitest';
import type { Grading, RiskLocation, paths } from './index.js';

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
