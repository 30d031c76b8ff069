import { isLoopbackHost, type AuthContext, type AuthScheme } from '@partner-apis/auth';
import {
  ApiError,
  ConfigurationError,
  ConnectionError,
  TimeoutError,
  apiErrorFromResponse,
  parseRetryAfter,
  redactUrl,
  type FailedRequest,
  type PartnerApisError,
} from '@partner-apis/errors';
import { bufferedResponse, parseJsonBody } from './buffered-response.js';
import { CallScope } from './call-scope.js';
import { PipelineRequest, type RequestBody } from './pipeline-request.js';
import { toConnectionError } from './network-failure.js';
import type { Observer } from './observer.js';
import type { RateLimiter } from './rate-limiter.js';
import { followRedirects, isRedirect } from './redirects.js';

export const REQUEST_ID_HEADER = 'x-z-request-id';
export const CONVERSATION_ID_HEADER = 'x-z-conversation-id';

/** Statuses worth another attempt: the gateway or the service was briefly unable to answer. */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
/** Methods whose repetition may do something twice. */
const NON_IDEMPOTENT_METHODS = new Set(['POST', 'PATCH']);
/** How often one call may ask the auth scheme to repair a 401 (refresh, then key failover). */
const MAX_UNAUTHORIZED_RETRIES = 2;

/** Everything one transport needs, resolved and validated when the client is created. */
export interface TransportSettings {
  fetch: typeof globalThis.fetch;
  /** URLs starting with this (the validated base URL's origin and `/`) need no check. */
  trustedPrefix: string | undefined;
  auth: AuthScheme | undefined;
  /** The token transport handed to the auth scheme. */
  tokenFetch: ((request: Request) => Promise<Response>) | undefined;
  rateLimiter: RateLimiter | undefined;
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterMs: number;
  retryWrites: boolean;
  attemptTimeoutMs: number;
  totalTimeoutMs: number;
  maxRedirects: number;
  /** Send `X-Z-Request-Id` (and the conversation id) at all. */
  tracing: boolean;
  /** The client's conversation id, or `per-call` for a fresh one per call. */
  conversationId: string | 'per-call' | undefined;
  /** Non-2xx responses become errors; when false, the final response is returned. */
  throwHttpErrors: boolean;
  secretHeaderNames: readonly string[];
  redactHeaders: (headers: Headers) => Record<string, string>;
  observer: Observer;
  clock: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  random: () => number;
}

type Outcome =
  | { response: Response; bytes: ArrayBuffer; error?: undefined }
  | { error: PartnerApisError; response?: undefined };

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

/** The request body in a form that can be sent once per attempt. */
async function replayableBody(
  request: Request | PipelineRequest,
): Promise<RequestBody | undefined> {
  if (request instanceof PipelineRequest) {
    const { body } = request;
    if (body === null) return undefined;
    // A stream can be read once only; any other body can be sent again as it is.
    return body instanceof ReadableStream ? new Response(body).arrayBuffer() : body;
  }
  return request.body === null ? undefined : request.arrayBuffer();
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

/**
 * Builds the `fetch` of one client: per attempt it waits for the rate limiter, sets the
 * tracing headers and the credentials, sends with a timeout, follows redirects safely and reads
 * the whole body; it retries what is worth retrying and turns a final failure into a typed
 * error, thrown where the body text is still at hand.
 */
export function createTransport(s: TransportSettings): (request: Request) => Promise<Response> {
  async function attemptOnce(
    request: FailedRequest,
    headers: Headers,
    body: RequestBody | undefined,
    call: CallScope,
  ): Promise<Outcome> {
    call.startAttempt(s.attemptTimeoutMs);
    let phase: 'send' | 'body' = 'send';
    try {
      const { url, method } = request;
      const signal = call.signal;
      let response = await s.fetch(url, { method, headers, body, signal, redirect: 'manual' });
      if (isRedirect(response)) {
        response = await followRedirects(
          s.fetch,
          { url, method, headers, body, signal },
          response,
          s.maxRedirects,
          s.secretHeaderNames,
          request,
        );
      }
      phase = 'body';
      return { response, bytes: await response.arrayBuffer() };
    } catch (error) {
      if (call.ended) throw call.reason;
      if (call.attemptTimedOut) {
        return {
          error: new TimeoutError({ request, timeoutMs: s.attemptTimeoutMs, scope: 'attempt' }),
        };
      }
      const failure = toConnectionError(error, request, phase);
      if (failure === undefined) throw error;
      return { error: failure };
    } finally {
      call.endAttempt();
    }
  }

  function malformedBodyError(response: Response, bytes: ArrayBuffer, request: FailedRequest) {
    return new ApiError({
      status: response.status,
      code: 'malformed_response',
      message:
        `${request.method} ${redactUrl(request.url)} answered ${response.status} with a JSON body ` +
        `that does not parse (${bytes.byteLength} bytes; cut short in transit?)`,
      request,
    });
  }

  function delayBeforeRetry(attempt: number, response: Response | undefined): number {
    const retryAfter = parseRetryAfter(response?.headers.get('retry-after'), s.clock());
    if (retryAfter !== undefined) return Math.min(retryAfter, s.maxRetryAfterMs);
    // Exponential backoff with full jitter, so clients that failed together spread out.
    return s.random() * Math.min(s.maxDelayMs, s.baseDelayMs * 2 ** (attempt - 1));
  }

  async function run(request: Request | PipelineRequest, call: CallScope): Promise<Response> {
    const { method, url } = request;
    const body = await replayableBody(request);
    const conversationId = !s.tracing
      ? undefined
      : (request.headers.get(CONVERSATION_ID_HEADER) ??
        (s.conversationId === 'per-call' ? globalThis.crypto.randomUUID() : s.conversationId));
    const mayResend = s.retryWrites || !NON_IDEMPOTENT_METHODS.has(method);
    const authContext: AuthContext | undefined =
      s.auth === undefined || s.tokenFetch === undefined
        ? undefined
        : {
            get signal() {
              return call.signal;
            },
            fetch: s.tokenFetch,
            now: s.clock,
            events: s.observer.authEvents,
          };
    let shown: string | undefined;
    const shownUrl = () => (shown ??= redactUrl(url));
    let unauthorizedRetries = 0;

    for (let attempt = 1; ; attempt += 1) {
      await s.rateLimiter?.take(call.signal);
      // The request is this call's own (openapi-fetch builds one per call), so its headers are
      // set in place rather than copied for every attempt.
      const { headers } = request;
      const requestId = s.tracing ? globalThis.crypto.randomUUID() : undefined;
      if (requestId !== undefined) headers.set(REQUEST_ID_HEADER, requestId);
      if (conversationId !== undefined) headers.set(CONVERSATION_ID_HEADER, conversationId);
      if (s.auth !== undefined && authContext !== undefined) {
        await s.auth.authorize(headers, authContext);
      }
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
      const outcome = await attemptOnce(info, headers, body, call);
      let failure: PartnerApisError;
      let response: Response | undefined;
      let finalResponse: Response | undefined;
      if (outcome.response === undefined) {
        failure = outcome.error;
      } else {
        const { bytes } = outcome;
        response = outcome.response;
        if (s.observer.detailed) {
          s.observer.response({
            method,
            url: shownUrl(),
            attempt,
            requestId,
            status: response.status,
            durationMs: s.clock() - started,
            headers: s.redactHeaders(response.headers),
          });
        }
        if (response.ok) {
          const json = parseJsonBody(response.headers, bytes);
          if (json !== null) return bufferedResponse(response, bytes, json);
          failure = malformedBodyError(response, bytes, info);
        } else if (
          response.status === 401 &&
          s.auth?.onUnauthorized !== undefined &&
          authContext !== undefined &&
          unauthorizedRetries < MAX_UNAUTHORIZED_RETRIES &&
          (await s.auth.onUnauthorized(bufferedResponse(response, bytes), authContext)) === 'retry'
        ) {
          unauthorizedRetries += 1;
          attempt -= 1; // repairing credentials does not use up an attempt
          continue;
        } else if (!s.throwHttpErrors && !RETRYABLE_STATUSES.has(response.status)) {
          return bufferedResponse(response, bytes);
        } else {
          failure = apiErrorFromResponse({
            response,
            text: new TextDecoder().decode(bytes),
            request: info,
            requestBody: parsedJsonBody(body, headers),
            secrets: secretValues(headers, s.secretHeaderNames),
            now: s.clock(),
          });
          finalResponse = bufferedResponse(response, bytes);
        }
      }
      const retryable =
        response === undefined
          ? failure instanceof ConnectionError ||
            (failure instanceof TimeoutError && failure.scope === 'attempt')
          : response.ok || RETRYABLE_STATUSES.has(response.status);
      const safeToResend =
        mayResend ||
        response?.status === 429 ||
        (failure instanceof ConnectionError && !failure.requestMayHaveBeenSent);
      if (retryable && safeToResend && attempt < s.attempts) {
        const delayMs = delayBeforeRetry(attempt, response);
        if (s.clock() + delayMs < call.deadline) {
          s.observer.retry({ method, url: shownUrl(), attempt, delayMs, error: failure });
          await s.sleep(delayMs, call.signal);
          continue;
        }
      }
      if (finalResponse !== undefined && !s.throwHttpErrors) return finalResponse;
      throw failure;
    }
  }

  return async function send(input: Request): Promise<Response> {
    // openapi-fetch hands over a PipelineRequest when the client was built with it.
    const request: Request | PipelineRequest = input;
    assertSecure(request.url, s.trustedPrefix);
    const call = new CallScope(request.signal, s.totalTimeoutMs, s.clock(), {
      method: request.method,
      url: request.url,
    });
    try {
      return await run(request, call);
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
