import { TimeoutError, apiErrorFromResponse } from '@partner-apis/errors';
import type { Observer } from '../observe/observer.js';
import { isWrite } from '../transport/buffered-response.js';
import { ResponseTooLarge, type Exchange, type Send } from '../transport/exchange.js';
import { toConnectionError } from '../transport/network-failure.js';
import { followRedirects, isRedirect } from '../transport/redirects.js';
import { attemptFailed, type InFlight, type Next } from './call.js';
import type { CallScope } from './call-scope.js';
import { errorContext, type ErrorSettings } from './errors.js';
import { MAX_TIMER_MS } from './retry.js';
import { number, section, type OptionFailure } from './options.js';

/** How long a call may take. */
export interface TimeoutOptions {
  /** One attempt, from sending to the end of the body; 30000 ms by default, 2147483647 at most. */
  attemptMs?: number | undefined;
  /** The whole call, retries and waits included; 120000 ms by default, 2147483647 at most. */
  totalMs?: number | undefined;
}

/** The option names of `timeout`, a client's and a call's. */
export const TIMEOUT_OPTION_NAMES = { attemptMs: true, totalMs: true } satisfies Record<
  keyof TimeoutOptions,
  true
>;

/** What one attempt may take and read. */
export interface AttemptOptions {
  timeout?: TimeoutOptions | undefined;
  /** Redirects followed per attempt; 5 by default, 0 refuses every redirect. */
  maxRedirects?: number | undefined;
  /**
   * The largest response body read, in bytes after decompression; 32 MiB by default. A larger
   * one stops the read and ends the call with an `ApiError` (code `response_too_large`).
   */
  maxResponseBytes?: number | undefined;
}

/** The attempt options, checked. */
export interface ResolvedAttempt {
  readonly attemptTimeoutMs: number;
  readonly totalTimeoutMs: number;
  readonly maxRedirects: number;
  readonly maxResponseBytes: number;
}

const ATTEMPT_DEFAULTS: ResolvedAttempt = {
  attemptTimeoutMs: 30_000,
  totalTimeoutMs: 120_000,
  maxRedirects: 5,
  maxResponseBytes: 33_554_432,
};

/**
 * Checks the timeouts and the limits of an attempt: a client's once, when it is built, over
 * the defaults; a call's over its client's, failing as `fail` says.
 */
export function resolveAttemptOptions(
  options: AttemptOptions,
  fallback = ATTEMPT_DEFAULTS,
  fail?: OptionFailure,
): ResolvedAttempt {
  const timeout = section('timeout', options.timeout, '{ attemptMs?, totalMs? }', fail);
  const ms = (name: string, value: number) =>
    number(`timeout.${name}`, timeout[name], { fallback: value, min: 1, max: MAX_TIMER_MS }, fail);
  return {
    attemptTimeoutMs: ms('attemptMs', fallback.attemptTimeoutMs),
    totalTimeoutMs: ms('totalMs', fallback.totalTimeoutMs),
    maxRedirects: number(
      'maxRedirects',
      options.maxRedirects,
      { fallback: fallback.maxRedirects, min: 0, max: 20, integer: true },
      fail,
    ),
    maxResponseBytes: number(
      'maxResponseBytes',
      options.maxResponseBytes,
      { fallback: fallback.maxResponseBytes, min: 1, integer: true },
      fail,
    ),
  };
}

/** What the attempt step needs beyond its options. */
export interface AttemptRuntime extends ErrorSettings {
  readonly send: Send;
  readonly observer: Observer;
  readonly redactHeaders: (headers: Headers) => Record<string, string>;
}

/**
 * The step that sends one attempt: within its own timeout, following redirects without leaking
 * credentials, reading the whole body up to the size limit. A failure is a typed error marked
 * with what the attempt came to (sent or not, worth another attempt or not).
 */
export function sendAttempt(s: ResolvedAttempt, run: AttemptRuntime): Next {
  return async (call) => {
    const { scope, request } = call;
    // A deadline that passes during this attempt names it.
    scope.current = request;
    if (run.observer.detailed) {
      run.observer.request({
        method: call.method,
        url: call.shownUrl(),
        attempt: call.attempt,
        requestId: request.requestId,
        conversationId: request.conversationId,
        headers: run.redactHeaders(call.headers),
      });
    }
    const started = run.clock();
    scope.startAttempt(call.limits.attemptTimeoutMs);
    const exchange = new AttemptExchange(call, s.maxResponseBytes);
    try {
      let answer = await run.send(exchange);
      if (isRedirect(answer)) {
        answer = await followRedirects(
          run.send,
          exchange,
          answer,
          s.maxRedirects,
          run.secretHeaderNames,
          request,
        );
      }
      if (run.observer.detailed) {
        run.observer.response({
          method: call.method,
          url: call.shownUrl(),
          attempt: call.attempt,
          requestId: request.requestId,
          status: answer.status,
          durationMs: run.clock() - started,
          headers: run.redactHeaders(answer.headers),
        });
      }
      return { answer };
    } catch (error) {
      throw attemptError(error, exchange, call, s, run);
    } finally {
      scope.endAttempt();
    }
  };
}

/**
 * One attempt's exchange, aborting with its call. A class, not an object literal: a literal
 * with a getter is built on V8's slow path, a cost every attempt paid; `signal` is still made
 * only when a sender asks for it.
 */
class AttemptExchange implements Exchange {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: Exchange['body'];
  readonly maxResponseBytes: number;
  readonly onWritten: (() => void) | undefined;
  readonly beforeWrite: (() => Promise<void> | undefined) | undefined;
  headersReceived = false;
  readonly #scope: CallScope;

  constructor(call: InFlight, maxResponseBytes: number) {
    this.url = call.sendUrl ?? call.url;
    this.method = call.method;
    this.headers = call.headers;
    this.body = call.body;
    this.maxResponseBytes = maxResponseBytes;
    this.onWritten = call.slot?.sent;
    this.beforeWrite = call.slot?.beforeWrite;
    this.#scope = call.scope;
  }

  get signal(): AbortSignal {
    return this.#scope.signal;
  }

  onAbort(listener: (reason: unknown) => void): () => void {
    return this.#scope.onAbort(listener);
  }
}

/** The typed error of a failed attempt, marked with what the attempt came to. */
function attemptError(
  error: unknown,
  exchange: Exchange,
  call: InFlight,
  s: ResolvedAttempt,
  run: AttemptRuntime,
): unknown {
  const { scope, request } = call;
  if (scope.ended) return scope.reason;
  if (error instanceof ResponseTooLarge) {
    // The error of its status class, from the start of the body that was read.
    const tooLarge = apiErrorFromResponse({
      response: error,
      text: new TextDecoder().decode(error.head),
      request,
      truncated: true,
      maxResponseBytes: s.maxResponseBytes,
      mayHaveTakenEffect: isWrite(call.method),
      ...errorContext(run, call),
    });
    return attemptFailed(tooLarge, { kind: 'fatal' });
  }
  if (scope.attemptTimedOut) {
    const timeout = new TimeoutError({
      request,
      timeoutMs: call.limits.attemptTimeoutMs,
      scope: 'attempt',
    });
    return attemptFailed(timeout, { kind: 'no-answer', sent: true });
  }
  const failure = toConnectionError(error, request, exchange.headersReceived ? 'body' : 'send');
  if (failure === undefined) return error;
  return attemptFailed(failure, { kind: 'no-answer', sent: failure.requestMayHaveBeenSent });
}
