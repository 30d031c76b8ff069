import {
  apiPromise,
  expectData,
  type ApiPromise,
  type CallOptions,
  type CallResult,
  type ServiceClient,
} from '@partner-apis/core';
import { InvalidArgumentError } from '@partner-apis/errors';
import { createQuote, getQuote, searchQuotes } from './generated/operations.js';
import { requireObject } from './sellers.js';
import type { Quote, QuoteRequest, QuoteSearchFilters, QuoteSearchResult } from './types.js';

/** Options of `quotes.create`. */
export interface CreateQuoteOptions extends CallOptions {
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
  create(quote: QuoteRequest, options?: CreateQuoteOptions): ApiPromise<Quote>;
  /**
   * The quotes that pass every given filter. The filters are the query parameters the spec
   * declares; an unknown name is an `InvalidArgumentError` before any request. Their names and
   * formats are our assumption (`x-upstream-gap`), so a value that breaks them is sent with a
   * warning (or refused, with the client option `assumptions: 'refuse'`).
   *
   * @example
   * const quotes = await client.quotes.search({ sellerId, createdFrom: '2026-03-01T00:00:00Z' });
   */
  search(filters?: QuoteSearchFilters, options?: CallOptions): ApiPromise<QuoteSearchResult>;
  /**
   * One quote by its `quoteId`; a `NotFoundError` when the service does not know it.
   *
   * @example
   * const quote = await client.quotes.get('QTE-2026-0004417');
   */
  get(quoteId: string, options?: CallOptions): ApiPromise<Quote>;
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

/** The call options of `quotes.create`, without its own. */
function callOptionsOf(given: CreateQuoteOptions | undefined): CallOptions | undefined {
  if (typeof given !== 'object' || given === null) return given;
  const callOptions: CreateQuoteOptions = { ...given };
  delete callOptions.forceManualReferral;
  return callOptions;
}

/** The `ApiPromise` of a call whose 2xx answer must have a body. */
function answer<T>(name: string, send: () => Promise<CallResult>): ApiPromise<T> {
  return apiPromise(
    send().then((result) => ({
      ...result,
      data: expectData(result as { data?: T; response: Response }, name),
    })),
  );
}

/** The quotes resource, sending `options(given)` with each call. */
export function createQuotes(
  client: ServiceClient<object>,
  options: (given: CallOptions | undefined) => CallOptions | undefined,
): Quotes {
  return {
    create(quote, given) {
      const name = 'quotes.create';
      return answer<Quote>(name, async () => {
        requireObject(quote, 'quote', name);
        const body = quoteBody(quote, given);
        return client.call(createQuote, { body }, options(callOptionsOf(given)), name);
      });
    },
    search(filters, given) {
      const name = 'quotes.search';
      return answer<QuoteSearchResult>(name, async () => {
        if (filters !== undefined) requireObject(filters, 'filters', name);
        const query = filters as Record<string, unknown> | undefined;
        return client.call(searchQuotes, { query, queryName: 'filters' }, options(given), name);
      });
    },
    get(quoteId, given) {
      const name = 'quotes.get';
      return answer<Quote>(name, () =>
        client.call(getQuote, { path: { quoteId } }, options(given), name),
      );
    },
  };
}
