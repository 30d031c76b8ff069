import { expectData } from '@partner-apis/core';
import {
  callInit,
  requireObject,
  type CallInit,
  type LiabilityCallOptions,
} from './call-options.js';
import type { LiabilityRaw } from './raw.js';
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
  create(seller: Seller, options?: LiabilityCallOptions): Promise<SellerCreated>;
}

export function createSellers(raw: LiabilityRaw, bound: CallInit): Sellers {
  return {
    async create(seller, options) {
      const { header, signal } = callInit(options, 'sellers.create', bound);
      requireObject(seller, 'seller', 'sellers.create');
      const result = await raw.POST('/parties/sellers', {
        params: { header },
        body: seller,
        signal,
      });
      return expectData(result, 'POST /parties/sellers');
    },
  };
}
