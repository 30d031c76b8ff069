import { isLoopbackHost, type AuthContext, type AuthScheme } from '@partner-apis/auth';
import {
  ApiError,
  ConfigurationError,
  TimeoutError,
  apiErrorFromResponse,
  parseRetryAfter,
  redactUrl,
  type FailedRequest,
  type PartnerApisError,
} from '@partner-apis/errors';
import { bufferedResponse, effectNote, isWrite, parseJsonBody } from '../transport/buffered-response.js';
import { CallScope } from './call-scope.js';
import {
  ResponseTooLarge,
  type Answer,
  type Exchange,
  type RequestBody,
  type Send,
} from '../transport/exchange.js';
import { toConnectionError } from '../transport/network-failure.js';
import type { Observer } from '../observe/observer.js';
import type { RateLimiter } from '../rate-limiter.js';
import { followRedirects, isRedirect } from '../transport/redirects.js';
import { decideRetry, type AttemptResult, type RetryPolicy } from './retry-decision.js';

export const REQUEST_ID_HEADER = 'x-z-request-id';
export const CONVERSATION_ID_HEADER = 'x-z-conversation-id';

/** How often one call may ask the auth scheme to repair a 401 (refresh, then key failover). */
const MAX_UNAUTHORIZED_RETRIES = 2;

/** Everything one transport needs, resolved and validated when the client is created. */
export interface TransportSettings extends RetryPolicy {
  /** Sends one exchange and reads its body whole. */
  send: Send;
  /** URLs starting with this (the validated base URL's origin and `/`) need no check. */
  trustedPrefix: string | undefined;
  auth: AuthScheme | undefined;
  /** The token transport handed to the auth scheme; its retries come out of the call's budget. */
  tokenFetch:
    | ((
        input: Parameters<AuthContext['fetch']>[0],
        init: Parameters<AuthContext['fetch']>[1],
        budget: RetryBudget,
      ) => Promise<Response>)
    | undefined;
  rateLimiter: RateLimiter | undefined;
  attemptTimeoutMs: number;
  totalTimeoutMs: number;
  maxRedirects: number;
  /** A body longer than this (decoded) ends the call with `response_too_large`. */
  maxResponseBytes: number;
  /** Send `X-Z-Request-Id` (and the conversation id) at all. */
  tracing: boolean;
  /** The client's conversation id, or `per-call` for a fresh one per call. */
  conversationId: string | 'per-call' | undefined;
  secretHeaderNames: readonly string[];
  redactHeaders: (headers: Headers) => Record<string, string>;
  observer: Observer;
  clock: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  random: () => number;
}

/** What one attempt came to: an answer read whole, or the error that ended it. */
type Outcome =
  | { answer: Answer; error?: undefined }
  | { error: PartnerApisError; sent: boolean; fatal: boolean; answer?: undefined };

function assertSecure(url: string, trustedPrefix: string | undefined): void {
  if (url.startsWith('https:') || (trustedPrefix !== undefined && url.startsWith(trustedPrefix))) {
    return;
  }
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return;
  throw new ConfigurationError('baseUrl', `must use https (got ${redactUrl(url)})`);
}

/** The values of the credential headers sent, to scrub them from an error body. */
function secretValues(headers: Headers, names: readonly string[]): string[] {
  const values: string[] = [];
  for (const name of names) {
    const value = headers.get(name);
    if (value === null) continue;
    values.push(value);
    const space = value.indexOf(' ');
    if (space !== -1) values.push(value.slice(space + 1));
  }
  return values;
}

/**
 * What an error built from an answer needs of the request: its JSON body (for the causes'
 * pointers), the secrets it carried (to scrub from an echo), and the time (for `Retry-After`).
 */
function errorContext(s: TransportSettings, headers: Headers, body: RequestBody | undefined) {
  return {
    requestBody: parsedJsonBody(body, headers),
    secrets: [...secretValues(headers, s.secretHeaderNames), ...(s.auth?.secretValues?.() ?? [])],
    now: s.clock(),
  };
}

function parsedJsonBody(body: RequestBody | undefined, headers: Headers): unknown {
  if (body === undefined || !(headers.get('content-type') ?? '').includes('json')) return undefined;
  let text: string;
  if (typeof body === 'string') text = body;
  else if (body instanceof ArrayBuffer || ArrayBuffer.isView(body))
    text = new TextDecoder().decode(body);
  else return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An `ApiError` the pipeline builds itself about an answer it cannot use. */
function unusableAnswer(
  status: number,
  code: string,
  why: string,
  request: FailedRequest,
): ApiError {
  return new ApiError({
    status,
    code,
    message: `${request.method} ${redactUrl(request.url)} ${why}${effectNote(request.method)}`,
    request,
    mayHaveTakenEffect: isWrite(request.method),
  });
}

/** What one call may set differently from its client (`timeout` and `retry` call options). */
export interface CallOverrides {
  readonly attemptTimeoutMs?: number | undefined;
  readonly totalTimeoutMs?: number | undefined;
  readonly attempts?: number | undefined;
  readonly retryWrites?: boolean | undefined;
}

/**
 * The retries one call has left, shared by the token requests it triggers, so that a failing
 * token endpoint cannot multiply the attempts of a call (token retries × call retries).
 */
export interface RetryBudget {
  retriesLeft: number;
}

/** One call as the pipeline sends it: the request, and what the caller set for this call. */
export interface PipelineCall {
  readonly method: string;
  readonly url: string;
  /** The call's own headers: each attempt sets the tracing and credential headers on them. */
  readonly headers: Headers;
  /** A body that can be sent again as it is (text or bytes). */
  readonly body: RequestBody | undefined;
  readonly signal: AbortSignal | undefined;
  readonly overrides?: CallOverrides | undefined;
  /** The retries left of the call this one serves (a token request's data call). */
  readonly budget?: RetryBudget | undefined;
}

/** The answer of one call, read whole, with what the caller may want to know about it. */
export interface PipelineReply {
  readonly status: number;
  readonly answer: Answer;
  /** The 2xx JSON body, parsed once in the attempt; undefined for an empty or non-JSON body. */
  readonly json: { value: unknown } | undefined;
  readonly request: FailedRequest;
  readonly requestId: string | undefined;
  readonly conversationId: string | undefined;
  /** Attempts sent, the last included; repairs of credentials do not count. */
  readonly attempts: number;
}

/** Sends one call through the pipeline: attempts, retries, typed errors. */
export type Execute = (call: PipelineCall) => Promise<PipelineReply>;

function withOverrides(s: TransportSettings, overrides: CallOverrides | undefined) {
  if (overrides === undefined) return s;
  const defined = Object.fromEntries(
    Object.entries(overrides).filter(([, value]) => value !== undefined),
  );
  return { ...s, ...defined };
}

/**
 * Builds the pipeline of one client: per attempt it sets the tracing headers and the
 * credentials, waits for the rate limiter, sends with a timeout, follows redirects safely and
 * reads the whole body (up to the size limit); `decideRetry` says what follows, and a final
 * failure becomes a typed error, thrown where the body text is still at hand.
 */
export function createTransport(base: TransportSettings): Execute {
  async function attemptOnce(
    s: TransportSettings,
    request: FailedRequest,
    headers: Headers,
    body: RequestBody | undefined,
    call: CallScope,
    onWritten: (() => void) | undefined,
  ): Promise<Outcome> {
    call.startAttempt(s.attemptTimeoutMs);
    const { url, method } = request;
    const exchange: Exchange = {
      url,
      method,
      headers,
      body,
      get signal() {
        return call.signal;
      },
      onAbort: (listener) => call.onAbort(listener),
      maxResponseBytes: s.maxResponseBytes,
      headersReceived: false,
      onWritten,
    };
    try {
      let answer = await s.send(exchange);
      if (isRedirect(answer)) {
        answer = await followRedirects(
          s.send,
          exchange,
          answer,
          s.maxRedirects,
          s.secretHeaderNames,
          request,
        );
      }
      return { answer };
    } catch (error) {
      if (call.ended) throw call.reason;
      if (error instanceof ResponseTooLarge) {
        // The error of its status class, from the start of the body that was read.
        const tooLarge = apiErrorFromResponse({
          response: error,
          text: new TextDecoder().decode(error.head),
          request,
          truncated: true,
          maxResponseBytes: s.maxResponseBytes,
          mayHaveTakenEffect: isWrite(request.method),
          ...errorContext(s, headers, body),
        });
        return { error: tooLarge, sent: true, fatal: true };
      }
      if (call.attemptTimedOut) {
        const timeout = new TimeoutError({
          request,
          timeoutMs: s.attemptTimeoutMs,
          scope: 'attempt',
        });
        return { error: timeout, sent: true, fatal: false };
      }
      const phase = exchange.headersReceived ? 'body' : 'send';
      const failure = toConnectionError(error, request, phase);
      if (failure === undefined) throw error;
      return { error: failure, sent: failure.requestMayHaveBeenSent, fatal: false };
    } finally {
      call.endAttempt();
    }
  }

  async function run(
    s: TransportSettings,
    request: PipelineCall,
    call: CallScope,
    budget: RetryBudget,
  ): Promise<PipelineReply> {
    const { method, url, body, headers } = request;
    const conversationId = !s.tracing
      ? undefined
      : (headers.get(CONVERSATION_ID_HEADER) ??
        (s.conversationId === 'per-call' ? globalThis.crypto.randomUUID() : s.conversationId));
    const { tokenFetch } = s;
    const authContext: AuthContext | undefined =
      s.auth === undefined || tokenFetch === undefined
        ? undefined
        : {
            get signal() {
              return call.signal;
            },
            // The call's token requests spend its retries, not retries of their own.
            fetch: (input, init) => tokenFetch(input, init, budget),
            now: s.clock,
            events: s.observer.authEvents,
          };
    let shown: string | undefined;
    const shownUrl = () => (shown ??= redactUrl(url));
    let unauthorizedRetries = 0;
    let attempt = 1;

    for (;;) {
      // The headers are this call's own, so they are set in place rather than copied for every
      // attempt.
      const requestId = s.tracing ? globalThis.crypto.randomUUID() : undefined;
      if (requestId !== undefined) headers.set(REQUEST_ID_HEADER, requestId);
      if (conversationId !== undefined) headers.set(CONVERSATION_ID_HEADER, conversationId);
      if (s.auth !== undefined && authContext !== undefined) {
        await s.auth.authorize(headers, authContext);
      }
      // The slot is taken last, right before sending: time spent getting a token must not
      // bunch the requests up at the server.
      const slot = await s.rateLimiter?.take(call.signal);
      const info: FailedRequest = { method, url, requestId, conversationId };
      call.current = info;
      if (s.observer.detailed) {
        s.observer.request({
          method,
          url: shownUrl(),
          attempt,
          requestId,
          conversationId,
          headers: s.redactHeaders(headers),
        });
      }
      const started = s.clock();
      let outcome: Outcome;
      try {
        outcome = await attemptOnce(s, info, headers, body, call, slot?.sent);
      } finally {
        slot?.sent();
      }

      let failure: PartnerApisError | undefined;
      let result: AttemptResult;
      let json: { value: unknown } | null | undefined;
      const { answer } = outcome;
      if (answer === undefined) {
        failure = outcome.error;
        result = outcome.fatal ? { kind: 'fatal' } : { kind: 'no-answer', sent: outcome.sent };
      } else {
        const { status } = answer;
        if (s.observer.detailed) {
          s.observer.response({
            method,
            url: shownUrl(),
            attempt,
            requestId,
            status,
            durationMs: s.clock() - started,
            headers: s.redactHeaders(answer.headers),
          });
        }
        if (status < 200 || status > 599) {
          const why = `answered with status ${status}, which is not an HTTP status (200–599)`;
          failure = unusableAnswer(status, 'malformed_response', why, info);
          result = { kind: 'fatal' };
        } else if (status < 300) {
          json = parseJsonBody(answer);
          if (json === null) {
            const why =
              `answered ${status} with a JSON body that does not parse ` +
              `(${answer.bytes.byteLength} bytes; cut short in transit?)`;
            failure = unusableAnswer(status, 'malformed_response', why, info);
          }
          result = { kind: 'answer', status, malformed: json === null };
        } else {
          const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'), s.clock());
          // The gateway counts calls per client application: every call of it waits, here and,
          // through a fleet, in every process.
          if (status === 429 && retryAfterMs !== undefined) {
            s.rateLimiter?.pause?.(Math.min(retryAfterMs, s.maxRetryAfterMs));
          }
          result = { kind: 'answer', status, retryAfterMs };
        }
      }

      const canRepairAuth =
        s.auth?.onUnauthorized !== undefined &&
        authContext !== undefined &&
        unauthorizedRetries < MAX_UNAUTHORIZED_RETRIES;
      const state = {
        attempt,
        method,
        canRepairAuth,
        now: s.clock(),
        deadline: call.deadline,
        random: s.random(),
        retriesLeft: budget.retriesLeft,
      };
      let decision = decideRetry(result, s, state);
      if (decision.action === 'repair-auth' && answer !== undefined) {
        const verdict = await s.auth?.onUnauthorized?.(
          bufferedResponse(answer, info),
          authContext as AuthContext,
        );
        if (verdict === 'retry') {
          // Repairing credentials does not use up an attempt.
          unauthorizedRetries += 1;
          continue;
        }
        decision = decideRetry(result, s, { ...state, canRepairAuth: false });
      }
      if (decision.action === 'return' && answer !== undefined) {
        return {
          status: answer.status,
          answer,
          json: json ?? undefined,
          request: info,
          requestId,
          conversationId,
          attempts: attempt,
        };
      }
      failure ??= apiErrorFromResponse({
        response: answer as Answer,
        text: new TextDecoder().decode(answer?.bytes),
        request: info,
        ...errorContext(s, headers, body),
      });
      if (decision.action === 'retry') {
        const { delayMs } = decision;
        s.observer.retry({ method, url: shownUrl(), attempt, delayMs, error: failure });
        budget.retriesLeft -= 1;
        await s.sleep(delayMs, call.signal);
        attempt += 1;
        continue;
      }
      throw failure;
    }
  }

  return async function execute(request: PipelineCall): Promise<PipelineReply> {
    const s = withOverrides(base, request.overrides);
    assertSecure(request.url, s.trustedPrefix);
    const budget = request.budget ?? { retriesLeft: s.attempts - 1 };
    const call = new CallScope(request.signal, s.totalTimeoutMs, s.clock(), {
      method: request.method,
      url: request.url,
    });
    try {
      return await run(s, request, call, budget);
    } catch (error) {
      // A wait that ended because the call was aborted rejects with whatever the waiter chose;
      // the caller gets the call's reason: its own abort reason, or the deadline's TimeoutError.
      if (call.ended) throw call.reason;
      throw error;
    } finally {
      call.dispose();
    }
  };
}

const STANDARD_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);

/** A body `fetch` was given, as one the pipeline can send again on every attempt. */
async function replayable(body: RequestInit['body'] | ReadableStream | null | undefined) {
  if (body === null || body === undefined) return undefined;
  // A stream or a form can be read once only; text and bytes can be sent again as they are.
  if (typeof body === 'string' || body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    return body;
  }
  return new Response(body).arrayBuffer();
}

/**
 * The pipeline's call of what `fetch` was given: a `Request`, or a URL with an init (what the
 * auth scheme's token request and openapi-fetch's `raw` client hand over).
 */
export async function callOfFetch(
  input: Request | string | URL,
  init?: RequestInit,
): Promise<PipelineCall> {
  if (typeof input === 'string' || input instanceof URL) {
    const method = (init?.method ?? 'GET').toUpperCase();
    return {
      method: STANDARD_METHODS.has(method) ? method : (init?.method ?? 'GET'),
      url: String(input),
      headers: new Headers(init?.headers),
      body: await replayable(init?.body),
      signal: init?.signal ?? undefined,
    };
  }
  const request = init === undefined ? input : new Request(input, init);
  return {
    method: request.method,
    url: request.url,
    headers: new Headers(request.headers),
    body: request.body === null ? undefined : await request.arrayBuffer(),
    signal: request.signal,
  };
}

/** The pipeline's reply as a `Response`, its body served from memory. */
export function responseOf(reply: PipelineReply): Response {
  return bufferedResponse(reply.answer, reply.request, reply.json);
}
