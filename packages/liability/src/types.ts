import type { QuotesSearchQuery } from './generated/resources.js';

export type {
  AgencyInformation,
  CountryOfSales,
  DeclarativeQuestionAnswers,
  ErrorBody,
  Insured,
  InsuredObject,
  PolicyLine,
  Price,
  Quote,
  QuoteRequest,
  QuoteSearchResult,
  QuoteStatus,
  Referral,
  Seller,
  SellerCreated,
  TerritoryOfSales,
  UnderwritingInformation,
} from './generated/resources.js';
/** The query filters of a quote search. Their names are not published: our assumption. */
export type QuoteSearchFilters = QuotesSearchQuery;
