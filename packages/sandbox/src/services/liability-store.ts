/** A stored seller: what was posted, plus its identifier. */
export type StoredSeller = Record<string, unknown> & { sellerId: string };

/** A valid price, which every quote has (the spec requires `Quote.price`). */
export interface StoredPrice {
  amount: string;
  currency: string;
}

/** A stored quote: the request, plus identifier, status, price, referrals and creation time. */
export type StoredQuote = Record<string, unknown> & {
  quoteId: string;
  createdAt: string;
  productId: string;
  price: StoredPrice;
  insureds: { sellerId: string }[];
};

/** Filters of `GET /quotes`. */
export interface QuoteFilters {
  sellerId?: string | undefined;
  productId?: string | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
}

/**
 * The liability service's state: sellers and quotes.
 */
export class LiabilityStore {
  readonly #sellers = new Map<string, StoredSeller>();
  readonly #quotes = new Map<string, StoredQuote>();

  addSeller(seller: Record<string, unknown>): StoredSeller {
    const stored = {
      ...seller,
      sellerId: `SEL-${String(this.#sellers.size + 1).padStart(6, '0')}`,
    };
    this.#sellers.set(stored.sellerId, stored);
    return stored;
  }

  hasSeller(sellerId: string): boolean {
    return this.#sellers.has(sellerId);
  }

  /** Stores a quote under the next identifier, e.g. `QTE-2026-0000001`. */
  addQuote(quote: Omit<StoredQuote, 'quoteId' | 'createdAt'>, now: Date): StoredQuote {
    const quoteId = `QTE-${now.getUTCFullYear()}-${String(this.#quotes.size + 1).padStart(7, '0')}`;
    // The identifier and time come last, so a request cannot set them.
    const stored = { ...quote, quoteId, createdAt: now.toISOString() } as StoredQuote;
    this.#quotes.set(quoteId, stored);
    return stored;
  }

  getQuote(quoteId: string): StoredQuote | undefined {
    return this.#quotes.get(quoteId);
  }

  /** The quotes that pass every given filter, oldest first. */
  searchQuotes(filters: QuoteFilters): StoredQuote[] {
    const from = filters.createdFrom === undefined ? -Infinity : Date.parse(filters.createdFrom);
    const to = filters.createdTo === undefined ? Infinity : Date.parse(filters.createdTo);
    const result: StoredQuote[] = [];
    for (const quote of this.#quotes.values()) {
      if (filters.productId !== undefined && quote.productId !== filters.productId) continue;
      if (
        filters.sellerId !== undefined &&
        !quote.insureds.some((insured) => insured.sellerId === filters.sellerId)
      ) {
        continue;
      }
      const created = Date.parse(quote.createdAt);
      if (created < from || created >= to) continue;
      result.push(quote);
    }
    return result;
  }
}
