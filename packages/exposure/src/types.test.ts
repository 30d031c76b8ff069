import { describe, expectTypeOf, it } from 'vitest';
import type {
  CoverageValues,
  Location,
  StatementOfValues,
  StatementOfValuesLocation,
  paths,
} from './index.js';

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
