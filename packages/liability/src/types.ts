import type { QuotesSearchParams } from './generated/resources.js';

/** The query filters of a quote search. Their names are not published: our assumption. */
export type QuoteSearchFilters = QuotesSearchParams;
/** @deprecated Use `QuotesSearchParams`, which also holds the header parameters a spec adds. */
export type QuotesSearchQuery = QuotesSearchParams;
