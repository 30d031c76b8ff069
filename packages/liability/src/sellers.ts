import {
  apiPromise,
  expectData,
  type ApiPromise,
  type CallOptions,
  type ServiceClient,
} from '@partner-apis/core';
import { InvalidArgumentError } from '@partner-apis/errors';
import { createSeller } from './generated/operations.js';
import type { Seller, SellerCreated } from './types.js';

/** The sellers of the liability service. */
export interface Sellers {
  /**
   * Registers a seller; quotes are then requested for its `sellerId`. Sent once: a POST is not
   * repeated after it may have reached the service, unless `retry.retryWrites` is set.
   *
   * @example
   * const { sellerId } = await client.sellers.create({ name: 'Nordlicht Home GmbH', address: { country: 'DE' } });
   */
  create(seller: Seller, options?: CallOptions): ApiPromise<SellerCreated>;
}

/** Refuses a request body that is not a plain object, before any request. */
export function requireObject(value: unknown, argument: string, operation: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(argument, 'must be an object', operation);
  }
}

/** The sellers resource, sending `options(given)` with each call. */
export function createSellers(
  client: ServiceClient<object>,
  options: (given: CallOptions | undefined) => CallOptions | undefined,
): Sellers {
  return {
    create(seller, given) {
      const name = 'sellers.create';
      return apiPromise(
        (async () => {
          requireObject(seller, 'seller', name);
          const result = await client.call(createSeller, { body: seller }, options(given), name);
          return {
            ...result,
            data: expectData(result as { data?: SellerCreated; response: Response }, name),
          };
        })(),
      );
    },
  };
}
