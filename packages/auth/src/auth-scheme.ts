import type { SecretDates } from './secret-expiry.js';

/** Why a token was requested. */
export type TokenRefreshReason = 'initial' | 'expiring' | 'expired' | 'unauthorized';

/** Reported after a token was obtained from the token endpoint. */
export interface TokenRefreshEvent {
  /** The token endpoint, with its query redacted. */
  readonly tokenUrl: string;
  readonly scopes: readonly string[];
  readonly reason: TokenRefreshReason;
  /** When the token expires, in ms since the epoch (by the client's clock). */
  readonly expiresAt: number;
  /** Lifetime in seconds: `expires_in`, or the default when the response had none. */
  readonly lifetimeSeconds: number;
  /** True when the response had no `expires_in` and the default lifetime was assumed. */
  readonly lifetimeAssumed: boolean;
}

/** Reported once when a client switches from the primary to the secondary subscription key. */
export interface KeyFailoverEvent {
  readonly from: 'primary';
  readonly to: 'secondary';
  /** Which request refused the primary key. */
  readonly refusedBy: 'data-request' | 'token-request';
}

/** The hooks an auth scheme reports through; the pipeline passes its own. */
export interface AuthEvents {
  onTokenRefresh?(event: TokenRefreshEvent): void;
  onKeyFailover?(event: KeyFailoverEvent): void;
}

/** A request an auth scheme sends itself (a token request), with its body as text. */
export interface AuthRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Credentials the URL carries (a key a gateway takes in the query): added to the URL that is
   * sent, never to the one messages, events and logs show.
   */
  readonly query?: readonly (readonly [name: string, value: string])[] | undefined;
  readonly body?: string | undefined;
}

/** An answer as an auth scheme sees it, read whole: any final status, never thrown. */
export interface AuthAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly text: string;
}

/**
 * What the pipeline hands a scheme for one logical call. The same object is passed to every
 * attempt of the call, so a scheme may keep per-call state in a `WeakMap` keyed by it.
 */
export interface AuthContext {
  /** Aborts when the caller gives up or the call's deadline passes. */
  readonly signal: AbortSignal;
  /**
   * The pipeline's transport without auth and without rate limiting, called like `fetch`:
   * timeouts and retries (5xx and connection errors, POST included) apply; any final status is
   * returned, not thrown. A URL with an init costs less than a `Request`, whose body must be
   * read back through a stream.
   */
  readonly fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /**
   * The same pipeline for a request the scheme builds itself, with no `Response` made and read
   * back: the answer comes as it was read. The built-in schemes send their token requests so.
   */
  readonly send: (request: AuthRequest) => Promise<AuthAnswer>;
  /** The pipeline's clock, in ms since the epoch. */
  readonly now: () => number;
  /** The pipeline's event hooks; calling them never throws. */
  readonly events: AuthEvents;
}

/**
 * How a client authenticates: the pipeline calls `authorize` before every attempt, and
 * `onUnauthorized` (if present) on a 401, at most twice per call.
 *
 * @example
 * const key = process.env.API_KEY ?? '';
 * const apiKey: AuthScheme = {
 *   secretHeaderNames: ['x-api-key'],
 *   secretValues: () => [key],
 *   authorize(headers) {
 *     headers.set('x-api-key', key);
 *   },
 * };
 */
export interface AuthScheme {
  /**
   * Lower-case names of the headers that carry credentials: never logged, never sent along a
   * cross-origin redirect, and their values are scrubbed from error bodies.
   */
  readonly secretHeaderNames: readonly string[];
  /** The public client ID, when the scheme has one: what a shared rate limit is kept per. */
  readonly clientId?: string | undefined;
  /**
   * Every raw secret the scheme sends or knows (client secret, subscription keys, the current
   * access token), so the pipeline can scrub one a server echoed back, in any common encoding,
   * even where it was sent inside another value (a `Basic` header) or not sent at all.
   */
  secretValues?(): readonly string[];
  /** When the secret was set or expires, for the warning at client start. */
  readonly secretDates?: SecretDates | undefined;
  /**
   * Query parameters that carry credentials (a subscription key a gateway takes in the query),
   * added to the URL each attempt sends, after `authorize`; the URL that messages, events and
   * logs show never has them.
   */
  queryParameters?(): readonly (readonly [name: string, value: string])[];
  /** Adds the credentials to the headers of one attempt. */
  authorize(headers: Headers, context: AuthContext): void | Promise<void>;
  /**
   * Decides on a 401, given the answer as it was read: `retry` sends the call again (after
   * fixing what it can), `fail` throws.
   */
  onUnauthorized?(answer: AuthAnswer, context: AuthContext): Promise<'retry' | 'fail'>;
}
