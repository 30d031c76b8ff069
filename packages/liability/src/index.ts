export { createLiabilityClient } from './client.js';
export type {
  LiabilityClient,
  LiabilityClientOptions,
  LiabilityConversation,
  LiabilityRaw,
  Sellers,
} from './client.js';
export type { ApiPromise, AssumptionPolicy, CallOptions, WithResponse } from '@partner-apis/core';
/** Options of every liability call: `signal` and `conversationId`. */
export type { CallOptions as LiabilityCallOptions } from '@partner-apis/core';
export type { CreateQuoteOptions, Quotes } from './quotes.js';
export { fromEnv } from './env.js';
export {
  COUNTRIES_OF_SALES,
  TERRITORIES_OF_SALES,
  THIRD_PARTY_LIABILITY_PRODUCT,
  thirdPartyLiabilityPolicyLine,
} from './third-party-liability.js';
export type { ThirdPartyLiabilityAnswers } from './third-party-liability.js';
export type { components, operations, paths } from './generated/openapi.js';
export type * from './generated/resources.js';
export type { QuoteSearchFilters, QuotesSearchQuery } from './types.js';

/** The typed errors every call throws, so users need no second import. */
export * from '@partner-apis/errors/classes';
