import { describe, expectTypeOf, it } from 'vitest';
import type {
  CountryOfSales,
  Price,
  Quote,
  QuoteRequest,
  QuoteSearchFilters,
  QuoteSearchResult,
  SellerCreated,
  TerritoryOfSales,
  UnderwritingInformation,
  paths,
} from './index.js';

// These names are public: renaming one in the spec must break this file (checked by `tsc`).
describe('liability types', () => {
  it('types the declarative questions as the published enums', () => {
    expectTypeOf<CountryOfSales>().toEqualTypeOf<'EU-ASIA' | 'US-CA-UK-IL-CL-AU' | 'OTHERS'>();
    expectTypeOf<TerritoryOfSales>().toEqualTypeOf<'US' | 'NON-US'>();
  });

  it('shapes a quote request around policy lines and insureds', () => {
    expectTypeOf<QuoteRequest['productId']>().toEqualTypeOf<string>();
    type Answers = QuoteRequest['policyLines'][number]['declarativeQuestionAnswers'];
    expectTypeOf<Answers['countryOfSales']>().toEqualTypeOf<CountryOfSales | undefined>();
    expectTypeOf<UnderwritingInformation['forceManualReferral']>().toEqualTypeOf<
      boolean | undefined
    >();
  });

  it('gives a quote its id, a decimal-string price and the search result as an array', () => {
    expectTypeOf<Quote['quoteId']>().toEqualTypeOf<string>();
    expectTypeOf<Price['amount']>().toEqualTypeOf<string>();
    expectTypeOf<QuoteSearchResult>().toEqualTypeOf<Quote[]>();
    expectTypeOf<SellerCreated['sellerId']>().toEqualTypeOf<string>();
    expectTypeOf<QuoteSearchFilters>().toHaveProperty('sellerId');
  });

  it('requires both tracing headers on every operation', () => {
    type Headers = paths['/quotes/{quoteId}']['get']['parameters']['header'];
    expectTypeOf<Headers>().toEqualTypeOf<{
      'X-Z-Conversation-Id': string;
      'X-Z-Request-Id': string;
    }>();
  });
});
