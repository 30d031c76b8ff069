import type { AuthContext } from '@partner-apis/auth';
import type { FailedRequest } from '@partner-apis/errors';
import type { RateSlot } from '../rate-limit/limiter.js';
import type { Answer, RequestBody } from '../transport/exchange.js';
import type { ResolvedAttempt, TimeoutOptions } from './attempt.js';
import type { CallScope } from './call-scope.js';
import type { OptionFailure } from './options.js';
import type { ResolvedRetry, RetryOptions } from './retry.js';
import type { AttemptResult } from './retry-decision.js';

/**
 * What one call sets differently from its client (its `timeout` and `retry` options), checked
 * over the client's by the client's rules, a bad one told by `fail`.
 */
export interface CallOverrides {
  readonly timeout?: TimeoutOptions | undefined;
  readonly retry?: RetryOptions | undefined;
  readonly fail: OptionFailure;
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
  /** Credentials the sent URL carries in its query, and the URL messages show never does. */
  readonly secretQuery?: readonly (readonly [string, string])[] | undefined;
}

/** `url` with query pairs added, each encoded. */
export function withQuery(url: string, pairs: readonly (readonly [string, string])[]): string {
  const query = pairs.map(
    ([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
  );
  return `${url}${url.includes('?') ? '&' : '?'}${query.join('&')}`;
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

/** One call in flight, as every step sees it; a step changes only what it owns. */
export interface InFlight {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: RequestBody | undefined;
  /** The call's signal, deadline and per-attempt timeout. */
  readonly scope: CallScope;
  readonly budget: RetryBudget;
  /** The call's timeouts and limits: its client's, or its own. */
  readonly limits: ResolvedAttempt;
  /** The call's retries: its client's, or its own. */
  readonly retry: ResolvedRetry;
  /** The call's `X-Z-Conversation-Id`, if it sends one. */
  readonly conversationId: string | undefined;
  /** The attempt being sent, from 1; repairs of credentials do not count. */
  attempt: number;
  /** The attempt as errors and events name it (its request id included). */
  request: FailedRequest;
  /**
   * The URL the attempt sends to, where it differs from `url`: with credentials in its query,
   * which `url`, and so every message, event and log, never shows.
   */
  sendUrl: string | undefined;
  /** The rate limiter's slot of the attempt: asked before its request is written, then told. */
  slot: RateSlot | undefined;
  /** What the auth scheme is handed, made at the call's first attempt and kept for the others. */
  authContext: AuthContext | undefined;
  /** The URL with its secrets redacted, for events. */
  readonly shownUrl: () => string;
}

/** An attempt's answer, read whole; the 2xx JSON body parsed once. */
export interface AttemptReply {
  readonly answer: Answer;
  readonly json?: { value: unknown } | undefined;
}

/** The rest of the pipeline, as a step sees it. */
export type Next = (call: InFlight) => Promise<AttemptReply>;

/**
 * One concern of the pipeline (request id, credentials, rate limit, …): it does its part and
 * hands the call on, or answers in its place.
 */
export type Step = (call: InFlight, next: Next) => Promise<AttemptReply>;

/** Orders the steps, the first outermost, over the step that sends. */
export function chain(steps: readonly Step[], send: Next): Next {
  return steps.reduceRight<Next>((next, step) => (call) => step(call, next), send);
}

/** What the attempt that threw each error came to, for the retry step. */
const results = new WeakMap<object, AttemptResult>();

/**
 * `error`, marked with what its attempt came to: the retry step decides on it, and errors
 * without a mark (an abort, a bug) are thrown on at once.
 */
export function attemptFailed<E extends object>(error: E, result: AttemptResult): E {
  results.set(error, result);
  return error;
}

/** What the attempt that threw `error` came to, if a step marked it. */
export function attemptResultOf(error: unknown): AttemptResult | undefined {
  return typeof error === 'object' && error !== null ? results.get(error) : undefined;
}
