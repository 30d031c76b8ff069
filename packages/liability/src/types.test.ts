import { describe, expectTypeOf, it } from 'vitest';
import {
  createLiabilityClient,
  thirdPartyLiabilityPolicyLine,
  type LiabilityConversation,
  type LiabilityRaw,
  type Seller,
} from './index.js';
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

describe('client types', () => {
  const client = createLiabilityClient({
    baseUrl: 'https://liability.example.com/v1/uat',
    credentials: { clientId: 'id', clientSecret: 'secret' },
  });

  it('types what each call takes and returns from the spec', () => {
    expectTypeOf(client.sellers.create).parameter(0).toEqualTypeOf<Seller>();
    // The spec's `allOf` of a seller and its id: the same fields as `SellerCreated`.
    expectTypeOf(client.sellers.create).returns.resolves.toExtend<SellerCreated>();
    expectTypeOf(client.quotes.create).parameter(0).toEqualTypeOf<QuoteRequest>();
    expectTypeOf(client.quotes.create).returns.resolves.toEqualTypeOf<Quote>();
    expectTypeOf<QuoteSearchFilters>().toExtend<Parameters<typeof client.quotes.search>[0]>();
    // A date-time filter takes a Date too.
    expectTypeOf<{ createdFrom: Date }>().toExtend<Parameters<typeof client.quotes.search>[0]>();
    expectTypeOf(client.quotes.search).returns.resolves.toEqualTypeOf<QuoteSearchResult>();
    expectTypeOf(client.quotes.get).parameter(0).toEqualTypeOf<string>();
    expectTypeOf(client.quotes.get).returns.resolves.toEqualTypeOf<Quote>();
    expectTypeOf(client.conversation).returns.toEqualTypeOf<LiabilityConversation>();
    expectTypeOf(client.conversationId).toEqualTypeOf<string>();
  });

  it('refuses what the spec does not allow', () => {
    const typeErrors = () => {
      // @ts-expect-error a seller needs an address
      void client.sellers.create({ name: 'Nordlicht Home GmbH' });
      // @ts-expect-error status is not a filter
      void client.quotes.search({ status: 'quoted' });
      // @ts-expect-error forceManualReferral is a boolean
      void client.quotes.create({} as QuoteRequest, { forceManualReferral: 'yes' });
      // @ts-expect-error the quote id is a string
      void client.quotes.get(4417);
      // @ts-expect-error 'EU' is not a published country of sales
      thirdPartyLiabilityPolicyLine({ countryOfSales: 'EU', territoryOfSales: 'US' });
      // @ts-expect-error the client needs credentials
      createLiabilityClient({ baseUrl: 'https://liability.example.com/v1/uat' });
    };
    void typeErrors;
  });

  it('lets raw calls leave the tracing headers to the pipeline', () => {
    expectTypeOf(client.raw).toEqualTypeOf<LiabilityRaw>();
    const call = () => client.raw.GET('/quotes/{quoteId}', { params: { path: { quoteId: 'q' } } });
    expectTypeOf(call).returns.resolves.toHaveProperty('data');
  });
});
