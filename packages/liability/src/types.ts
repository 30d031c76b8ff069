import type { components, operations } from './generated/openapi.js';

type SellerSchema = components['schemas']['Seller'];
/** A party for which quotes can be requested. */
export interface Seller extends SellerSchema {}
type SellerCreatedSchema = components['schemas']['SellerCreated'];
/** A created seller, with the `sellerId` that quotes refer to. */
export interface SellerCreated extends SellerCreatedSchema {}
type QuoteRequestSchema = components['schemas']['QuoteRequest'];
/** Everything needed to create a quote. */
export interface QuoteRequest extends QuoteRequestSchema {}
type QuoteSchema = components['schemas']['Quote'];
/** A created quote: `quoteId`, status, price, referrals and the request it answers. */
export interface Quote extends QuoteSchema {}
/** The quotes that match a search. */
export type QuoteSearchResult = Quote[];
/** The query filters of a quote search. Their names are not published: our assumption. */
export type QuoteSearchFilters = NonNullable<operations['searchQuotes']['parameters']['query']>;
type PolicyLineSchema = components['schemas']['PolicyLine'];
/** A product subscribed, with its declarative question answers. */
export interface PolicyLine extends PolicyLineSchema {}
type DeclarativeQuestionAnswersSchema = components['schemas']['DeclarativeQuestionAnswers'];
/** Answers to the declarative questions of a policy line. */
export interface DeclarativeQuestionAnswers extends DeclarativeQuestionAnswersSchema {}
/** Declarative question `countryOfSales`. */
export type CountryOfSales = components['schemas']['CountryOfSales'];
/** Declarative question `territoryOfSales`. */
export type TerritoryOfSales = components['schemas']['TerritoryOfSales'];
type InsuredObjectSchema = components['schemas']['InsuredObject'];
/** Details of the insured object. */
export interface InsuredObject extends InsuredObjectSchema {}
type InsuredSchema = components['schemas']['Insured'];
/** The entity for which a quote is created. */
export interface Insured extends InsuredSchema {}
type UnderwritingInformationSchema = components['schemas']['UnderwritingInformation'];
/** Forced manual referral and the agent's username. */
export interface UnderwritingInformation extends UnderwritingInformationSchema {}
type AgencyInformationSchema = components['schemas']['AgencyInformation'];
/** The agency for which a quote is created. */
export interface AgencyInformation extends AgencyInformationSchema {}
type PriceSchema = components['schemas']['Price'];
/** A price; `amount` is a decimal string so no precision is lost. */
export interface Price extends PriceSchema {}
type ReferralSchema = components['schemas']['Referral'];
/** A referral that applies to a quote. */
export interface Referral extends ReferralSchema {}
/** The state of a quote; its values are not published. */
export type QuoteStatus = components['schemas']['QuoteStatus'];
type ErrorBodySchema = components['schemas']['ErrorBody'];
/** The common error body of every error response. */
export interface ErrorBody extends ErrorBodySchema {}
