import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import { TokenCache, type CachedToken } from '@partner-apis/auth';
import { UNAVAILABLE, type FleetConnection } from './fleet-connection.js';
import type { TokenSealing } from './token-sealing.js';

export interface FleetTokenCacheSettings {
  connection: FleetConnection;
  sealing: TokenSealing;
  keyPrefix: string;
  /** How long one process may hold the right to ask for a token before another may. */
  lockMs: number;
  /** How often a process without a token looks for the one another process is fetching. */
  pollMs: number;
}

/** Releases the lock only if this process still holds it (it may have expired and moved on). */
const RELEASE_LOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * A token cache whose entries live in Redis as well as in the process. The process's own copy
 * answers every call until the token is due for refresh, so a call costs no Redis round trip;
 * only then does the process look in Redis, and only the process that wins a lock asks the
 * token endpoint while the others keep the valid token or wait for the new one.
 */
export class FleetTokenCache extends TokenCache {
  readonly #s: FleetTokenCacheSettings;
  /** Tokens the service refused (a 401), per entry: never taken from Redis again. */
  readonly #refused = new Map<string, string>();

  constructor(settings: FleetTokenCacheSettings) {
    super();
    this.#s = settings;
  }

  override invalidate(key: string, token: CachedToken): void {
    super.invalidate(key, token);
    this.#refused.set(key, token.accessToken);
  }

  override singleFlight(key: string, request: () => Promise<CachedToken>): Promise<CachedToken> {
    return super.singleFlight(key, () => this.#fleetFlight(key, request));
  }

  async #fleetFlight(key: string, request: () => Promise<CachedToken>): Promise<CachedToken> {
    const { connection, sealing, keyPrefix, lockMs, pollMs } = this.#s;
    // The key holds the token URL, client ID, scopes and the secret's digest; Redis sees only
    // a digest of it.
    const id = createHash('sha256').update(key).digest('base64url');
    const tokenKey = `${keyPrefix}token:${id}`;
    const lockKey = `${keyPrefix}token-lock:${id}`;
    const refused = this.#refused.get(key);
    const giveUpAt = Date.now() + lockMs;
    /** The token Redis holds for the entry, unless it is expired or the one refused. */
    const storedToken = async () => {
      const stored = await connection.run((client) => client.get(tokenKey));
      if (stored === UNAVAILABLE) return UNAVAILABLE;
      const token = stored === null ? undefined : sealing.open(stored, tokenKey);
      return token !== undefined && token.accessToken !== refused && Date.now() < token.expiresAt
        ? token
        : undefined;
    };
    for (;;) {
      const valid = await storedToken();
      if (valid === UNAVAILABLE) return this.#local(key, request);
      const now = Date.now();
      if (valid !== undefined && now < valid.refreshAt) return this.#taken(key, valid);
      const owner = randomUUID();
      const locked = await connection.run((client) =>
        client.set(lockKey, owner, 'PX', lockMs, 'NX'),
      );
      if (locked === UNAVAILABLE) return valid ?? this.#local(key, request);
      if (locked === 'OK') {
        try {
          // Another process may have stored a token and let go between the look and the lock.
          const stored = await storedToken();
          if (stored !== UNAVAILABLE && stored !== undefined && Date.now() < stored.refreshAt) {
            return this.#taken(key, stored);
          }
          const fresh = await request();
          const ttl = fresh.expiresAt - Date.now();
          if (ttl > 0) {
            const sealed = sealing.seal(fresh, tokenKey);
            await connection.run((client) => client.set(tokenKey, sealed, 'PX', Math.ceil(ttl)));
          }
          return this.#taken(key, fresh);
        } finally {
          await connection
            .run(() => connection.script(RELEASE_LOCK, [lockKey], [owner]))
            .catch(() => undefined);
        }
      }
      // Another process is refreshing: keep the valid token a little longer, then look again.
      if (valid !== undefined) {
        return { ...valid, refreshAt: Math.min(valid.expiresAt, now + Math.max(pollMs, 1000)) };
      }
      if (Date.now() >= giveUpAt) return this.#local(key, request);
      await wait(pollMs);
    }
  }

  #taken(key: string, token: CachedToken): CachedToken {
    this.#refused.delete(key);
    return token;
  }

  /** Redis cannot be used: this process asks for its own token, as without a fleet. */
  async #local(key: string, request: () => Promise<CachedToken>): Promise<CachedToken> {
    return this.#taken(key, await request());
  }
}
