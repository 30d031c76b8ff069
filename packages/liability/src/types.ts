import type { QuotesSearchQuery } from './generated/resources.js';

/** The query filters of a quote search. Their names are not published: our assumption. */
export type QuoteSearchFilters = QuotesSearchQuery;
