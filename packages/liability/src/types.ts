import type { components, operations } from './generated/openapi.js';

/** A party for which quotes can be requested. */
export type Seller = components['schemas']['Seller'];
/** A created seller, with the `sellerId` that quotes refer to. */
export type SellerCreated = components['schemas']['SellerCreated'];
/** Everything needed to create a quote. */
export type QuoteRequest = components['schemas']['QuoteRequest'];
/** A created quote: `quoteId`, status, price, referrals and the request it answers. */
export type Quote = components['schemas']['Quote'];
/** The quotes that match a search. */
export type QuoteSearchResult = components['schemas']['QuoteSearchResult'];
/** The query filters of a quote search. Their names are not published: our assumption. */
export type QuoteSearchFilters = NonNullable<operations['searchQuotes']['parameters']['query']>;
/** A product subscribed, with its declarative question answers. */
export type PolicyLine = components['schemas']['PolicyLine'];
/** Answers to the declarative questions of a policy line. */
export type DeclarativeQuestionAnswers = components['schemas']['DeclarativeQuestionAnswers'];
/** Declarative question `countryOfSales`. */
export type CountryOfSales = components['schemas']['CountryOfSales'];
/** Declarative question `territoryOfSales`. */
export type TerritoryOfSales = components['schemas']['TerritoryOfSales'];
/** Details of the insured object. */
export type InsuredObject = components['schemas']['InsuredObject'];
/** The entity for which a quote is created. */
export type Insured = components['schemas']['Insured'];
/** Forced manual referral and the agent's username. */
export type UnderwritingInformation = components['schemas']['UnderwritingInformation'];
/** The agency for which a quote is created. */
export type AgencyInformation = components['schemas']['AgencyInformation'];
/** A price; `amount` is a decimal string so no precision is lost. */
export type Price = components['schemas']['Price'];
/** A referral that applies to a quote. */
export type Referral = components['schemas']['Referral'];
/** The state of a quote; its values are not published. */
export type QuoteStatus = components['schemas']['QuoteStatus'];
/** The common error body of every error response. */
export type ErrorBody = components['schemas']['ErrorBody'];
