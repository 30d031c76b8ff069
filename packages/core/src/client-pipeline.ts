import { checkSecretExpiry, parseSecureUrl, type AuthScheme } from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import { DEFAULT_LOGGED_HEADERS, createHeaderRedactor } from './header-redactor.js';
import { createObserver, type Logger, type PipelineEvents } from './observer.js';
import {
  RATE_LIMIT_TIERS,
  createRateLimiter,
  type CustomRateLimit,
  type RateLimitTier,
} from './rate-limiter.js';
import { abortableSleep } from './sleep.js';
import { createTransport, type TransportSettings } from './transport.js';
import { createClientTracing, type TracingOptions } from './tracing.js';

/** When and how often failed attempts are sent again. */
export interface RetryOptions {
  /** Attempts per call, the first included: 1–10, 3 by default. */
  attempts?: number | undefined;
  /** The backoff before the second attempt is at most this (doubling after); 250 ms by default. */
  baseDelayMs?: number | undefined;
  /** The backoff never exceeds this; 8000 ms by default. */
  maxDelayMs?: number | undefined;
  /** A longer `Retry-After` is cut to this; 30000 ms by default. */
  maxRetryAfterMs?: number | undefined;
  /**
   * Also resend POST and PATCH after they may have reached the server (only if the operation
   * is safe to repeat). By default they are resent only when the connection was refused, or
   * after a 429.
   */
  retryWrites?: boolean | undefined;
}

/** How long a call may take. */
export interface TimeoutOptions {
  /** One attempt, from sending to the end of the body; 30000 ms by default. */
  attemptMs?: number | undefined;
  /** The whole call, retries and waits included; 120000 ms by default. */
  totalMs?: number | undefined;
}

/** Options of `createClientPipeline`. */
export interface PipelineOptions {
  /** The service address; `https:` only, except on loopback hosts. */
  baseUrl: string;
  /** How requests are authenticated; none by default. */
  auth?: AuthScheme | undefined;
  retry?: RetryOptions | undefined;
  timeout?: TimeoutOptions | undefined;
  /** A tier of the upstream (`bronze` 1/s, `silver` 10/s, `gold` 100/s) or a custom rate. */
  rateLimit?: RateLimitTier | CustomRateLimit | undefined;
  /**
   * `per-client`: one `X-Z-Conversation-Id` for every call of the client; `per-call`: a fresh
   * one per call. A request that carries the header keeps its own. None by default.
   */
  conversationId?: 'per-client' | 'per-call' | undefined;
  /** Redirects followed per attempt; 5 by default, 0 refuses every redirect. */
  maxRedirects?: number | undefined;
  events?: PipelineEvents | undefined;
  logger?: Logger | undefined;
  /** More headers whose values may be logged; credential headers never are. */
  logHeaders?: readonly string[] | undefined;
  /** OpenTelemetry spans per call and per attempt; off by default (see the README). */
  tracing?: boolean | TracingOptions | undefined;
  /** The `fetch` that sends; the global one by default. It must honour `redirect: 'manual'`. */
  fetch?: typeof globalThis.fetch | undefined;
  /** The clock, in ms since the epoch; `Date.now` by default. */
  clock?: (() => number) | undefined;
  /** Waits between attempts and for the rate limiter; must reject when the signal aborts. */
  sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
  /** A number in [0, 1) for the backoff jitter; `Math.random` by default. */
  random?: (() => number) | undefined;
}

/** The request pipeline of one client. */
export interface ClientPipeline {
  /** Give this to openapi-fetch's `createClient({ fetch })`. Throws typed errors. */
  readonly fetch: (request: Request) => Promise<Response>;
  /** The service address, validated. */
  readonly baseUrl: string;
  /** The conversation id of every call, with `conversationId: 'per-client'`. */
  readonly conversationId: string | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

interface NumberRule {
  fallback: number;
  min: number;
  max?: number;
  integer?: boolean;
}

function number(option: string, value: unknown, rule: NumberRule): number {
  if (value === undefined) return rule.fallback;
  const max = rule.max ?? Number.MAX_SAFE_INTEGER;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < rule.min ||
    value > max ||
    (rule.integer === true && !Number.isInteger(value))
  ) {
    const kind = rule.integer === true ? 'an integer' : 'a number';
    const range = rule.max === undefined ? `of at least ${rule.min}` : `from ${rule.min} to ${max}`;
    throw new ConfigurationError(option, `must be ${kind} ${range} (got ${String(value)})`);
  }
  return value;
}

function fn<T>(option: string, value: unknown, fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'function') throw new ConfigurationError(option, 'must be a function');
  return value as T;
}

function section(option: string, value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isRecord(value)) throw new ConfigurationError(option, 'must be an object');
  return value;
}

function resolveRate(value: unknown): CustomRateLimit | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    if (!Object.hasOwn(RATE_LIMIT_TIERS, value)) {
      throw new ConfigurationError(
        'rateLimit',
        `must be bronze, silver, gold or { requestsPerSecond } (got ${value})`,
      );
    }
    return { requestsPerSecond: RATE_LIMIT_TIERS[value as RateLimitTier] };
  }
  const rate = section('rateLimit', value);
  return {
    requestsPerSecond: number('rateLimit.requestsPerSecond', rate.requestsPerSecond ?? Number.NaN, {
      fallback: 0,
      min: 0.001,
      max: 1e6,
    }),
    burst: number('rateLimit.burst', rate.burst, { fallback: 1, min: 1, max: 1e6, integer: true }),
  };
}

function resolveAuth(value: unknown): AuthScheme | undefined {
  if (value === undefined) return undefined;
  if (
    !isRecord(value) ||
    typeof value.authorize !== 'function' ||
    !Array.isArray(value.secretHeaderNames)
  ) {
    throw new ConfigurationError(
      'auth',
      'must be an auth scheme, e.g. basicAuth(…), clientIdHeaders(…) or oauth2ClientCredentials(…)',
    );
  }
  return value as unknown as AuthScheme;
}

/** Logs one warning at start when the client secret expires within 60 days or has expired. */
function warnOfSecretExpiry(auth: AuthScheme | undefined, now: number, warn: (m: string) => void) {
  if (auth?.secretDates === undefined) return;
  const { level, daysLeft, expiresAt } = checkSecretExpiry(auth.secretDates, now);
  const day = expiresAt.toISOString().slice(0, 10);
  if (level === 'warn') {
    warn(`The client secret expires on ${day} (in ${daysLeft} days): set a new one in the portal.`);
  } else if (level === 'expired') {
    warn(`The client secret expired on ${day}: set a new one in the portal.`);
  }
}

/**
 * Builds the request pipeline of one client: a `fetch` for openapi-fetch's `createClient` that
 * rate-limits, traces, authenticates, times out, retries, follows redirects without leaking
 * credentials and throws typed errors. Options are checked here, once; a bad one throws a
 * `ConfigurationError` naming it.
 *
 * @example
 * import createClient from 'openapi-fetch';
 * const pipeline = createClientPipeline({
 *   baseUrl: 'https://api.example.com/v1',
 *   auth: basicAuth({ clientId: 'id', clientSecret: process.env.SECRET ?? '' }),
 *   rateLimit: 'silver',
 *   conversationId: 'per-client',
 * });
 * const raw = createClient<paths>({ baseUrl: pipeline.baseUrl, fetch: pipeline.fetch });
 */
export function createClientPipeline(options: PipelineOptions): ClientPipeline {
  if (!isRecord(options)) throw new ConfigurationError('options', 'must be an object');
  const base = parseSecureUrl('baseUrl', options.baseUrl);
  const baseUrl = base.href.replace(/\/+$/, '');
  const auth = resolveAuth(options.auth);
  const retry = section('retry', options.retry);
  const timeout = section('timeout', options.timeout);
  const clock = fn('clock', options.clock, Date.now);
  const sleep = fn('sleep', options.sleep, abortableSleep);
  const random = fn('random', options.random, Math.random);
  const events = options.events === undefined ? undefined : section('events', options.events);
  const logger = options.logger === undefined ? undefined : section('logger', options.logger);
  const logHeaders = options.logHeaders ?? [];
  if (!Array.isArray(logHeaders) || logHeaders.some((name) => typeof name !== 'string')) {
    throw new ConfigurationError('logHeaders', 'must be an array of header names');
  }
  const conversation = options.conversationId;
  if (conversation !== undefined && conversation !== 'per-client' && conversation !== 'per-call') {
    throw new ConfigurationError(
      'conversationId',
      `must be per-client or per-call (got ${String(conversation)})`,
    );
  }
  const rate = resolveRate(options.rateLimit);
  const tracing = createClientTracing(options.tracing);
  const secretHeaderNames = [
    ...new Set([
      'authorization',
      'proxy-authorization',
      'cookie',
      ...(auth?.secretHeaderNames ?? []),
    ]),
  ].map((name) => name.toLowerCase());
  const observer = createObserver(
    events as PipelineEvents | undefined,
    logger as Logger | undefined,
  );

  const common: Omit<
    TransportSettings,
    | 'auth'
    | 'tokenFetch'
    | 'trustedPrefix'
    | 'rateLimiter'
    | 'tracing'
    | 'conversationId'
    | 'throwHttpErrors'
    | 'retryWrites'
  > = {
    // Bound: workerd refuses a `fetch` called as a method of another object.
    fetch: fn('fetch', options.fetch, globalThis.fetch.bind(globalThis)),
    attempts: number('retry.attempts', retry.attempts, {
      fallback: 3,
      min: 1,
      max: 10,
      integer: true,
    }),
    baseDelayMs: number('retry.baseDelayMs', retry.baseDelayMs, { fallback: 250, min: 0 }),
    maxDelayMs: number('retry.maxDelayMs', retry.maxDelayMs, { fallback: 8000, min: 0 }),
    maxRetryAfterMs: number('retry.maxRetryAfterMs', retry.maxRetryAfterMs, {
      fallback: 30_000,
      min: 0,
    }),
    attemptTimeoutMs: number('timeout.attemptMs', timeout.attemptMs, { fallback: 30_000, min: 1 }),
    totalTimeoutMs: number('timeout.totalMs', timeout.totalMs, { fallback: 120_000, min: 1 }),
    maxRedirects: number('maxRedirects', options.maxRedirects, {
      fallback: 5,
      min: 0,
      max: 20,
      integer: true,
    }),
    secretHeaderNames,
    redactHeaders: createHeaderRedactor(
      [...DEFAULT_LOGGED_HEADERS, ...logHeaders],
      secretHeaderNames,
    ),
    observer,
    clock,
    sleep,
    random,
  };
  if (retry.retryWrites !== undefined && typeof retry.retryWrites !== 'boolean') {
    throw new ConfigurationError('retry.retryWrites', 'must be true or false');
  }
  // The token endpoint gets the same timeouts and retries, but no auth, no rate limit and no
  // tracing headers; asking for a token twice is harmless, so its POST is always retried.
  const tokenFetch = createTransport({
    ...common,
    auth: undefined,
    tokenFetch: undefined,
    trustedPrefix: undefined,
    rateLimiter: undefined,
    tracing: false,
    conversationId: undefined,
    throwHttpErrors: false,
    retryWrites: true,
  });
  const conversationId = conversation === 'per-client' ? globalThis.crypto.randomUUID() : undefined;
  const fetch = createTransport({
    ...common,
    fetch: tracing?.traceExchanges(common.fetch) ?? common.fetch,
    auth,
    tokenFetch,
    trustedPrefix: `${base.origin}/`,
    rateLimiter: rate === undefined ? undefined : createRateLimiter(rate, clock, sleep),
    tracing: true,
    conversationId: conversation === 'per-call' ? 'per-call' : conversationId,
    throwHttpErrors: true,
    retryWrites: retry.retryWrites === true,
  });
  warnOfSecretExpiry(auth, clock(), (message) => {
    if (logger?.warn !== undefined) observer.warn(message);
    else globalThis.process?.emitWarning(message, { code: 'PARTNER_APIS_SECRET_EXPIRY' });
  });
  return { fetch: tracing?.traceCalls(fetch) ?? fetch, baseUrl, conversationId };
}
