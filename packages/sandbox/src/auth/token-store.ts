import { randomBytes } from 'node:crypto';

/** What the sandbox remembers of an issued access token. */
export interface IssuedToken {
  readonly clientId: string;
  readonly scopes: ReadonlySet<string>;
  readonly expiresAt: number;
}

// Tokens are swept of expired ones past this count, and the oldest dropped past the hard cap,
// so a long benchmark that fetches many tokens cannot grow memory without bound.
const SWEEP_AT = 10_000;
const HARD_CAP = 100_000;

/**
 * Opaque access tokens with their client, scopes and expiry.
 */
export class TokenStore {
  #lifetimeSeconds: number;
  readonly #tokens = new Map<string, IssuedToken>();

  constructor(lifetimeSeconds: number) {
    this.#lifetimeSeconds = lifetimeSeconds;
  }

  get lifetimeSeconds(): number {
    return this.#lifetimeSeconds;
  }

  /** Changes the lifetime of tokens issued from now on. */
  set lifetimeSeconds(seconds: number) {
    this.#lifetimeSeconds = seconds;
  }

  issue(clientId: string, scopes: readonly string[]): { token: string; expiresIn: number } {
    if (this.#tokens.size >= SWEEP_AT) this.#sweep();
    const token = randomBytes(32).toString('base64url');
    const expiresIn = this.#lifetimeSeconds;
    this.#tokens.set(token, {
      clientId,
      scopes: new Set(scopes),
      expiresAt: Date.now() + expiresIn * 1000,
    });
    return { token, expiresIn };
  }

  /** The token's record while it is valid; `undefined` once it is unknown or expired. */
  find(token: string): IssuedToken | undefined {
    const issued = this.#tokens.get(token);
    if (issued === undefined) return undefined;
    if (Date.now() >= issued.expiresAt) {
      this.#tokens.delete(token);
      return undefined;
    }
    return issued;
  }

  /** Makes every token issued so far invalid, as if all had expired. */
  expireAll(): void {
    this.#tokens.clear();
  }

  #sweep(): void {
    const now = Date.now();
    for (const [token, issued] of this.#tokens)
      if (now >= issued.expiresAt) this.#tokens.delete(token);
    // Map iteration follows insertion order: the first entries are the oldest tokens.
    for (const token of this.#tokens.keys()) {
      if (this.#tokens.size < HARD_CAP) break;
      this.#tokens.delete(token);
    }
  }
}
