import type { ApiPromise, CallOptions } from '@partner-apis/core';
import { InvalidArgumentError } from '@partner-apis/errors';
import type { Quote, QuoteRequest, Resources } from './generated/resources.js';

/** Options of `quotes.create`. */
export interface CreateQuoteOptions extends CallOptions {
  /**
   * Pass the quote to manual underwriting whatever its risk assessment: sets
   * `underwritingInformation.forceManualReferral` on a copy of the request.
   */
  forceManualReferral?: boolean | undefined;
}

/**
 * The quotes of the liability service: the spec's `create`, `search` and `get`, with one
 * option of `create` the spec cannot state as a call option (`forceManualReferral`).
 */
export interface Quotes extends Omit<Resources['quotes'], 'create'> {
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
}

/** The quote request with `forceManualReferral` applied, and the call options without it. */
function splitOptions(
  quote: QuoteRequest,
  given: CreateQuoteOptions | undefined,
): [QuoteRequest, CallOptions | undefined] {
  if (typeof given !== 'object' || given === null) return [quote, given];
  const { forceManualReferral: force, ...callOptions } = given;
  if (force === undefined) return [quote, callOptions];
  if (typeof force !== 'boolean') {
    throw new InvalidArgumentError(
      'options.forceManualReferral',
      'must be true or false',
      'quotes.create',
    );
  }
  if (typeof quote !== 'object' || quote === null) return [quote, callOptions];
  const underwriting = { ...quote.underwritingInformation, forceManualReferral: force };
  return [{ ...quote, underwritingInformation: underwriting }, callOptions];
}

/**
 * The generated quotes with `create` taking `forceManualReferral`.
 *
 * @example
 * const quotes = withManualReferral(createResources(client).quotes);
 */
export function withManualReferral(generated: Resources['quotes']): Quotes {
  return {
    ...generated,
    create(quote, options) {
      const [body, callOptions] = splitOptions(quote, options);
      return generated.create(body, callOptions);
    },
  };
}
