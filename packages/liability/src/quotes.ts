import { expectData } from '@partner-apis/core';
import { InvalidArgumentError } from '@partner-apis/errors';
import {
  callInit,
  requireObject,
  type CallInit,
  type LiabilityCallOptions,
} from './call-options.js';
import type { LiabilityRaw } from './raw.js';
import { queryParameters } from './spec.js';
import type { Quote, QuoteRequest, QuoteSearchFilters, QuoteSearchResult } from './types.js';

/** Options of `quotes.create`. */
export interface CreateQuoteOptions extends LiabilityCallOptions {
  /**
   * Pass the quote to manual underwriting whatever its risk assessment: sets
   * `underwritingInformation.forceManualReferral` on a copy of the request.
   */
  forceManualReferral?: boolean | undefined;
}

/** The quotes of the liability service. */
export interface Quotes {
  /**
   * Creates a quote; the answer gives its price, or the referrals that send it to manual
   * underwriting. Sent once: a POST is not repeated after it may have reached the service,
   * unless `retry.retryWrites` is set.
   *
   * @example
   * const quote = await client.quotes.create(
   *   {
   *     productId: THIRD_PARTY_LIABILITY_PRODUCT.productId,
   *     policyLines: [thirdPartyLiabilityPolicyLine({ countryOfSales: 'EU-ASIA', territoryOfSales: 'NON-US' })],
   *     insureds: [{ sellerId }],
   *   },
   *   { forceManualReferral: true },
   * );
   */
  create(quote: QuoteRequest, options?: CreateQuoteOptions): Promise<Quote>;
  /**
   * The quotes that pass every given filter. Filters are checked before any request: an
   * unknown name, an empty value or a `createdFrom`/`createdTo` that is not an RFC 3339
   * date-time is an `InvalidArgumentError`.
   *
   * @example
   * const quotes = await client.quotes.search({ sellerId, createdFrom: '2026-03-01T00:00:00Z' });
   */
  search(filters?: QuoteSearchFilters, options?: LiabilityCallOptions): Promise<QuoteSearchResult>;
  /**
   * One quote by its `quoteId`; a `NotFoundError` when the service does not know it.
   *
   * @example
   * const quote = await client.quotes.get('QTE-2026-0004417');
   */
  get(quoteId: string, options?: LiabilityCallOptions): Promise<Quote>;
}

/** The filters of `GET /quotes`, read from the spec (their names are our assumption there). */
const SEARCH_FILTERS = queryParameters('/quotes', 'get');
const FILTER_NAMES = SEARCH_FILTERS.map((filter) => filter.name).join(', ');
const RFC3339_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

function isNonBlank(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function searchQuery(filters: unknown): QuoteSearchFilters {
  const operation = 'quotes.search';
  if (filters === undefined) return {};
  if (typeof filters !== 'object' || filters === null || Array.isArray(filters)) {
    throw new InvalidArgumentError('filters', `must be an object of ${FILTER_NAMES}`, operation);
  }
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    const filter = SEARCH_FILTERS.find((candidate) => candidate.name === name);
    const argument = `filters.${name}`;
    if (filter === undefined) {
      throw new InvalidArgumentError(argument, `is not a filter (use ${FILTER_NAMES})`, operation);
    }
    if (!isNonBlank(value)) {
      throw new InvalidArgumentError(argument, 'must be a non-empty string', operation);
    }
    if (
      filter.format === 'date-time' &&
      (!RFC3339_DATE_TIME.test(value) || Number.isNaN(Date.parse(value)))
    ) {
      throw new InvalidArgumentError(
        argument,
        `must be an RFC 3339 date-time such as 2026-03-01T00:00:00Z (got ${JSON.stringify(value)})`,
        operation,
      );
    }
    query[name] = value;
  }
  return query;
}

function quoteBody(quote: QuoteRequest, options: CreateQuoteOptions | undefined): QuoteRequest {
  const force = options?.forceManualReferral;
  if (force === undefined) return quote;
  if (typeof force !== 'boolean') {
    throw new InvalidArgumentError(
      'options.forceManualReferral',
      'must be true or false',
      'quotes.create',
    );
  }
  return {
    ...quote,
    underwritingInformation: { ...quote.underwritingInformation, forceManualReferral: force },
  };
}

export function createQuotes(raw: LiabilityRaw, bound: CallInit): Quotes {
  return {
    async create(quote, options) {
      const { header, signal } = callInit(options, 'quotes.create', bound);
      requireObject(quote, 'quote', 'quotes.create');
      const body = quoteBody(quote, options);
      return expectData(
        await raw.POST('/quotes', { params: { header }, body, signal }),
        'POST /quotes',
      );
    },
    async search(filters, options) {
      const { header, signal } = callInit(options, 'quotes.search', bound);
      const query = searchQuery(filters);
      return expectData(
        await raw.GET('/quotes', { params: { header, query }, signal }),
        'GET /quotes',
      );
    },
    async get(quoteId, options) {
      const { header, signal } = callInit(options, 'quotes.get', bound);
      if (!isNonBlank(quoteId)) {
        throw new InvalidArgumentError('quoteId', 'must be a non-empty string', 'quotes.get');
      }
      const path = { quoteId };
      const result = await raw.GET('/quotes/{quoteId}', { params: { header, path }, signal });
      return expectData(result, 'GET /quotes/{quoteId}');
    },
  };
}
