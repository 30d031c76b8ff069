/** An access token as cached. Never logged: the class keeps entries in private fields. */
export interface CachedToken {
  readonly accessToken: string;
  /** When the token expires, in ms since the epoch. */
  readonly expiresAt: number;
  /** From when on a call refreshes it first (the refresh margin before `expiresAt`). */
  refreshAt: number;
  readonly lifetimeSeconds: number;
}

/**
 * Access tokens per token URL, client ID, scope set and secret, with at most one token request in
 * flight per entry. One instance is shared by every client of the process unless a client is
 * given its own.
 */
export class TokenCache {
  readonly #tokens = new Map<string, CachedToken>();
  readonly #flights = new Map<string, Promise<CachedToken>>();

  get(key: string): CachedToken | undefined {
    return this.#tokens.get(key);
  }

  /** Drops the entry, but only if it still holds `token` (another call may have replaced it). */
  invalidate(key: string, token: CachedToken): void {
    if (this.#tokens.get(key) === token) this.#tokens.delete(key);
  }

  /** Joins the token request in flight for `key`, or starts `request` as the one. */
  singleFlight(key: string, request: () => Promise<CachedToken>): Promise<CachedToken> {
    const running = this.#flights.get(key);
    if (running !== undefined) return running;
    const flight = request()
      .then((token) => {
        this.#tokens.set(key, token);
        return token;
      })
      .finally(() => this.#flights.delete(key));
    this.#flights.set(key, flight);
    return flight;
  }

  /** Forgets every token, e.g. after credentials were rotated. */
  clear(): void {
    this.#tokens.clear();
  }
}

/**
 * A token cache of its own, for a client that must not share tokens with the rest of the
 * process (tests, or several tenants with the same client ID).
 *
 * @example
 * const auth = oauth2ClientCredentials({ ...options, tokenCache: createTokenCache() });
 */
export function createTokenCache(): TokenCache {
  return new TokenCache();
}

/** The cache every `oauth2ClientCredentials` scheme uses unless given another. */
export const sharedTokenCache: TokenCache = new TokenCache();
