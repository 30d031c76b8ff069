import { checkSecretExpiry, parseSecureUrl, type AuthScheme } from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import { pipelineRateLimiter, resolveFleet, type Fleet } from '../fleet.js';
import { DEFAULT_LOGGED_HEADERS, createHeaderRedactor } from '../observe/header-redactor.js';
import { createObserver, type Logger, type PipelineEvents } from '../observe/observer.js';
import {
  RATE_LIMIT_TIERS,
  createRateLimiter,
  type CustomRateLimit,
  type RateLimitTier,
} from '../rate-limiter.js';
import { createDefaultSend } from '#default-send';
import { createFetchSend } from '../transport/fetch-send.js';
import { abortableSleep } from './sleep.js';
import {
  callOfFetch,
  createTransport,
  responseOf,
  type Execute,
  type TransportSettings,
} from './transport.js';
import type { TestHooks } from '../testing.js';
import { createClientTracing, type TracingOptions } from '../observe/tracing.js';

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
  /** One attempt, from sending to the end of the body; 30000 ms by default, 2147483647 at most. */
  attemptMs?: number | undefined;
  /** The whole call, retries and waits included; 120000 ms by default, 2147483647 at most. */
  totalMs?: number | undefined;
}

/**
 * An `http.Agent` or `https.Agent` of Node (any proxy agent is one). Typed by what the transport
 * uses of it, so that these types do not need Node's: code for browsers and workers compiles
 * without `@types/node`.
 */
export interface HttpAgentLike {
  destroy(): void;
}

/** Options of `createClientPipeline`; the test hooks (`clock`, `sleep`, `random`) too. */
export interface PipelineOptions extends TestHooks {
  /** The service address; `https:` only, except on loopback hosts. */
  baseUrl: string;
  /** How requests are authenticated; none by default. */
  auth?: AuthScheme | undefined;
  retry?: RetryOptions | undefined;
  timeout?: TimeoutOptions | undefined;
  /** A tier of the upstream (`bronze` 1/s, `silver` 10/s, `gold` 100/s) or a custom rate. */
  rateLimit?: RateLimitTier | CustomRateLimit | undefined;
  /** Processes sharing the rate limit and the tokens, e.g. `createRedisFleet({ url })`. */
  fleet?: Fleet | undefined;
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
  /**
   * The largest response body read, in bytes after decompression; 32 MiB by default. A larger
   * one stops the read and ends the call with an `ApiError` (code `response_too_large`).
   */
  maxResponseBytes?: number | undefined;
  /**
   * The `http.Agent` or `https.Agent` of the Node transport, e.g. a proxy agent; a keep-alive
   * agent of the client's own by default. Node only, and not together with `fetch`.
   */
  agent?: HttpAgentLike | undefined;
  /** OpenTelemetry spans per call and per attempt; off by default (see the README). */
  tracing?: boolean | TracingOptions | undefined;
  /**
   * The `fetch` that sends, instead of the default transport (`node:http` in Node, the global
   * `fetch` elsewhere). It must honour `redirect: 'manual'`.
   */
  fetch?: typeof globalThis.fetch | undefined;
}

/** The request pipeline of one client. */
export interface ClientPipeline {
  /** Sends one call: what the resource methods use. Throws typed errors. */
  readonly execute: Execute;
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

/** The longest wait a timer can take: Node fires a longer one at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** Statuses worth another attempt: the gateway or the service was briefly unable to answer. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
/** The token endpoint's: every 5xx too, since asking for a token twice is harmless. */
const TOKEN_RETRYABLE_STATUSES: ReadonlySet<number> = new Set([
  429,
  ...Array.from({ length: 100 }, (_, i) => 500 + i),
]);

/** 32 MiB. */
const DEFAULT_MAX_RESPONSE_BYTES = 33_554_432;

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

/** The sender: over the caller's `fetch`, else the default transport (with the caller's agent). */
function sender(options: PipelineOptions) {
  if (options.fetch === undefined) return createDefaultSend(options.agent);
  const fetch = fn<typeof globalThis.fetch>('fetch', options.fetch, globalThis.fetch);
  if (options.agent !== undefined) {
    throw new ConfigurationError(
      'agent',
      'cannot be combined with fetch: give the agent to your fetch',
    );
  }
  return createFetchSend(fetch);
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
  const fleet = resolveFleet(options.fleet);
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
    | 'retryStatuses'
  > = {
    send: sender(options),
    attempts: number('retry.attempts', retry.attempts, {
      fallback: 3,
      min: 1,
      max: 10,
      integer: true,
    }),
    baseDelayMs: number('retry.baseDelayMs', retry.baseDelayMs, {
      fallback: 250,
      min: 0,
      max: MAX_TIMER_MS,
    }),
    maxDelayMs: number('retry.maxDelayMs', retry.maxDelayMs, {
      fallback: 8000,
      min: 0,
      max: MAX_TIMER_MS,
    }),
    maxRetryAfterMs: number('retry.maxRetryAfterMs', retry.maxRetryAfterMs, {
      fallback: 30_000,
      min: 0,
      max: MAX_TIMER_MS,
    }),
    attemptTimeoutMs: number('timeout.attemptMs', timeout.attemptMs, {
      fallback: 30_000,
      min: 1,
      max: MAX_TIMER_MS,
    }),
    totalTimeoutMs: number('timeout.totalMs', timeout.totalMs, {
      fallback: 120_000,
      min: 1,
      max: MAX_TIMER_MS,
    }),
    maxResponseBytes: number('maxResponseBytes', options.maxResponseBytes, {
      fallback: DEFAULT_MAX_RESPONSE_BYTES,
      min: 1,
      integer: true,
    }),
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
  // tracing headers; asking for a token twice is harmless, so its POST is always retried, after
  // any 5xx too.
  const tokenTransport = createTransport({
    ...common,
    auth: undefined,
    tokenFetch: undefined,
    trustedPrefix: undefined,
    rateLimiter: undefined,
    tracing: false,
    conversationId: undefined,
    throwHttpErrors: false,
    retryWrites: true,
    retryStatuses: TOKEN_RETRYABLE_STATUSES,
  });
  // Called like fetch by the auth scheme; its retries come out of the budget of the data call
  // it serves.
  const tokenFetch: TransportSettings['tokenFetch'] = async (input, init, budget) =>
    responseOf(await tokenTransport({ ...(await callOfFetch(input, init)), budget }));
  const conversationId = conversation === 'per-client' ? globalThis.crypto.randomUUID() : undefined;
  const transport = createTransport({
    ...common,
    send: tracing?.traceExchanges(common.send) ?? common.send,
    auth,
    tokenFetch,
    trustedPrefix: `${base.origin}/`,
    rateLimiter:
      rate === undefined
        ? undefined
        : pipelineRateLimiter(fleet, {
            baseUrl,
            clientId: auth?.clientId,
            rate,
            localLimiter: (localRate) => createRateLimiter(localRate, clock, sleep),
            sleep,
            clock,
          }),
    tracing: true,
    conversationId: conversation === 'per-call' ? 'per-call' : conversationId,
    throwHttpErrors: true,
    retryWrites: retry.retryWrites === true,
    retryStatuses: RETRYABLE_STATUSES,
  });
  warnOfSecretExpiry(auth, clock(), (message) => {
    if (logger?.warn !== undefined) observer.warn(message);
    else globalThis.process?.emitWarning(message, { code: 'PARTNER_APIS_SECRET_EXPIRY' });
  });
  const execute = tracing?.traceCalls(transport) ?? transport;
  const fetch = async (request: Request) => responseOf(await execute(await callOfFetch(request)));
  return { execute, fetch, baseUrl, conversationId };
}
