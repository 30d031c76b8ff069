import { checkSecretExpiry, parseSecureUrl, type AuthScheme } from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import { pipelineRateLimiter } from '../rate-limit/registry.js';
import { DEFAULT_LOGGED_HEADERS, createHeaderRedactor } from '../observe/header-redactor.js';
import {
  createObserver,
  type Logger,
  type Observer,
  type PipelineEvents,
} from '../observe/observer.js';
import { createClientTracing, type TracingOptions } from '../observe/tracing.js';
import { resolveAttemptOptions, sendAttempt, type AttemptOptions } from '../pipeline/attempt.js';
import type { Execute, Step } from '../pipeline/call.js';
import { credentialsStep, resolveCredentialsOptions } from '../pipeline/credentials.js';
import { errorsStep } from '../pipeline/errors.js';
import { callOfFetch, responseOf } from '../pipeline/fetch-shape.js';
import { isHeaderValue } from '../operations/call-options.js';
import { fn, section } from '../pipeline/options.js';
import { createPipeline } from '../pipeline/pipeline.js';
import {
  rateLimitStep,
  resolveRateLimitOptions,
  type RateLimitOptions,
} from '../pipeline/rate-limit.js';
import {
  requestIdStep,
  resolveRequestIdOptions,
  type RequestIdOptions,
} from '../pipeline/request-id.js';
import { resolveRetryOptions, retryStep, type RetryOptions } from '../pipeline/retry.js';
import { abortableSleep } from '../pipeline/sleep.js';
import { createRateLimiter } from '../rate-limit/limiter.js';
import type { TestHooks } from '../testing.js';
import { createDefaultSend } from '@partner-apis/core/default-send';
import { directSendOf } from '../transport/direct-send.js';
import { createFetchSend } from '../transport/fetch-send.js';

/**
 * An `http.Agent` or `https.Agent` of Node (any proxy agent is one). Typed by what the transport
 * uses of it, so that these types do not need Node's: code for browsers and workers compiles
 * without `@types/node`.
 */
export interface HttpAgentLike {
  destroy(): void;
}

/** Options of `createClientPipeline`: those of every step, the transport's, and the observers'. */
export interface PipelineOptions
  extends TestHooks, AttemptOptions, RateLimitOptions, RequestIdOptions {
  /** The service address; `https:` only, except on loopback hosts. */
  baseUrl: string;
  /** The `User-Agent` of every request, token requests included, unless a call sets its own. */
  userAgent?: string | undefined;
  /** How requests are authenticated; none by default. */
  auth?: AuthScheme | undefined;
  retry?: RetryOptions | undefined;
  events?: PipelineEvents | undefined;
  logger?: Logger | undefined;
  /** More headers whose values may be logged; credential headers never are. */
  logHeaders?: readonly string[] | undefined;
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
  /** Tells a warning once: to the logger with its code, else as a process warning. */
  readonly warn: Observer['warn'];
}

/** Statuses worth another attempt: the gateway or the service was briefly unable to answer. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
/** The token endpoint's: every 5xx too, since asking for a token twice is harmless. */
const TOKEN_RETRYABLE_STATUSES: ReadonlySet<number> = new Set([
  429,
  ...Array.from({ length: 100 }, (_, i) => 500 + i),
]);

/**
 * The sender: the caller's `fetch`'s own sender when it offers one (see `SEND_KEY`), else one
 * over that `fetch`, else the default transport (with the caller's agent).
 */
function sender(options: PipelineOptions) {
  if (options.fetch === undefined) return createDefaultSend(options.agent);
  const fetch = fn<typeof globalThis.fetch>('fetch', options.fetch, globalThis.fetch);
  if (options.agent !== undefined) {
    throw new ConfigurationError(
      'agent',
      'cannot be combined with fetch: give the agent to your fetch',
    );
  }
  return directSendOf(fetch) ?? createFetchSend(fetch);
}

function logHeadersOf(value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string')) {
    throw new ConfigurationError('logHeaders', 'must be an array of header names');
  }
  return value;
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
 * Builds the request pipeline of one client: every step's options are resolved here, once (a
 * bad one throws a `ConfigurationError` naming it), and the steps are put in order: retry →
 * errors → credentials → request id → rate limit → the attempt. Token requests take the same
 * steps without credentials, request ids and rate limit, and retry any 5xx.
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
  const settings = resolvePipelineOptions(options);
  const { base, auth, retry, attempt, userAgent, clock, send, tracing } = settings;
  const tokenExecute = tokenPipeline(settings);
  const steps: Step[] = [
    ...(tracing === undefined ? [] : [tracing.step]),
    retryStep(settings.retryPolicy, settings.retryRuntime),
    errorsStep(settings.errorSettings),
  ];
  if (auth !== undefined) {
    steps.push(credentialsStep({ auth, tokenExecute, observer: settings.observer, clock }));
  }
  const requestId = requestIdStep(settings.tracingHeaders.headers);
  if (requestId !== undefined) steps.push(requestId);
  if (settings.rate !== undefined) {
    const limiter = pipelineRateLimiter(
      settings.fleet,
      {
        baseUrl: settings.baseUrl,
        clientId: auth?.clientId,
        rate: settings.rate,
        localLimiter: (localRate) => createRateLimiter(localRate, clock, settings.sleep),
        sleep: settings.sleep,
        clock,
      },
      (message) => settings.observer.warn(message, 'PARTNER_APIS_RATE_LIMIT'),
    );
    steps.push(rateLimitStep(limiter, retry.maxRetryAfterMs, clock));
  }
  const execute = createPipeline(
    {
      attempt,
      retry,
      trustedPrefix: `${base.origin}/`,
      tracing: settings.tracingHeaders,
      userAgent,
      clock,
    },
    steps,
    sendAttempt(attempt, {
      ...settings.attemptRuntime,
      send: tracing?.traceExchanges(send) ?? send,
    }),
  );
  warnOfSecretExpiry(auth, clock(), (message) =>
    settings.observer.warn(message, 'PARTNER_APIS_SECRET_EXPIRY'),
  );
  const fetch = async (request: Request) => responseOf(await execute(await callOfFetch(request)));
  const { conversation } = settings.tracingHeaders;
  const conversationId = conversation === 'per-call' ? undefined : conversation;
  const { warn } = settings.observer;
  return { execute, fetch, baseUrl: settings.baseUrl, conversationId, warn };
}

/** Every option of the pipeline resolved and checked once, and what the steps share. */
function resolvePipelineOptions(options: PipelineOptions) {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError('options', 'must be an object');
  }
  const base = parseSecureUrl('baseUrl', options.baseUrl);
  const auth = resolveCredentialsOptions(options);
  const retry = resolveRetryOptions(options);
  const clock = fn('clock', options.clock, Date.now);
  const sleep = fn('sleep', options.sleep, abortableSleep);
  const random = fn('random', options.random, Math.random);
  const events = options.events === undefined ? undefined : section('events', options.events);
  const logger = options.logger === undefined ? undefined : section('logger', options.logger);
  const observer = createObserver(
    events as PipelineEvents | undefined,
    logger as Logger | undefined,
  );
  const secretHeaderNames = [
    ...new Set([
      'authorization',
      'proxy-authorization',
      'cookie',
      ...(auth?.secretHeaderNames ?? []),
    ]),
  ].map((name) => name.toLowerCase());
  const errorSettings = { secretHeaderNames, auth, clock };
  const tracingHeaders = resolveRequestIdOptions(options);
  const { requestId, conversationId } = tracingHeaders.headers;
  const logHeaders = logHeadersOf(options.logHeaders);
  const redactHeaders = createHeaderRedactor(
    [...DEFAULT_LOGGED_HEADERS, ...logHeaders, requestId ?? '', conversationId ?? ''],
    secretHeaderNames,
  );
  const retryRuntime = { observer, clock, sleep, random };
  return {
    base,
    baseUrl: base.href.replace(/\/+$/, ''),
    auth,
    retry,
    attempt: resolveAttemptOptions(options),
    tracingHeaders,
    ...resolveRateLimitOptions(options),
    clock,
    sleep,
    observer,
    tracing: createClientTracing(options.tracing, tracingHeaders.headers),
    send: sender(options),
    userAgent: userAgentOf(options.userAgent),
    errorSettings,
    attemptRuntime: { ...errorSettings, observer, redactHeaders },
    retryRuntime,
    retryPolicy: { retryStatuses: RETRYABLE_STATUSES, throwHttpErrors: true },
  };
}

function userAgentOf(userAgent: unknown): string | undefined {
  if (userAgent !== undefined && !isHeaderValue(userAgent)) {
    throw new ConfigurationError(
      'userAgent',
      'must be a non-empty string of Latin-1 characters without line breaks',
    );
  }
  return userAgent;
}

/**
 * Token requests: asking for a token twice is harmless, so its POST is always retried, after
 * any 5xx too, and its final answer is the auth scheme's to judge.
 */
function tokenPipeline(settings: ReturnType<typeof resolvePipelineOptions>): Execute {
  const { attempt, retry, userAgent, clock } = settings;
  return createPipeline(
    {
      attempt,
      retry: { ...retry, retryWrites: true },
      trustedPrefix: undefined,
      tracing: undefined,
      userAgent,
      clock,
    },
    [
      retryStep(
        { retryStatuses: TOKEN_RETRYABLE_STATUSES, throwHttpErrors: false },
        settings.retryRuntime,
      ),
      errorsStep(settings.errorSettings),
    ],
    sendAttempt(attempt, { ...settings.attemptRuntime, send: settings.send }),
  );
}
