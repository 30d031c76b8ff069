import type { Answer } from '../transport/exchange.js';

/** What one attempt came to, as far as deciding what to do next is concerned. */
export type AttemptResult =
  /**
   * The server answered (`answer`, returned as it is when the policy does not throw HTTP
   * errors); `malformed`: a 2xx whose JSON body did not parse.
   */
  | {
      kind: 'answer';
      status: number;
      malformed?: boolean;
      retryAfterMs?: number | undefined;
      answer?: Answer | undefined;
    }
  /** No answer; `sent`: whether the request may have reached the server. */
  | { kind: 'no-answer'; sent: boolean }
  /** Something no further attempt can mend (a body over the size limit, an invalid status). */
  | { kind: 'fatal' };

/** The retry settings of one client, resolved at creation. */
export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterMs: number;
  /** Statuses worth another attempt. */
  retryStatuses: ReadonlySet<number>;
  /** Resend POST and PATCH after they may have reached the server (`retry.retryWrites`). */
  retryWrites: boolean;
  /** Non-2xx responses become errors; when false, the final one is returned. */
  throwHttpErrors: boolean;
}

/** Where the call stands. */
export interface CallState {
  /** The attempt that just ended, from 1. */
  attempt: number;
  method: string;
  now: number;
  /** The call's deadline, by the same clock as `now`. */
  deadline: number;
  /** A number in [0, 1) for the backoff jitter. */
  random: number;
  /**
   * Retries the call has left, shared with the token requests it triggered; without it, only
   * `attempts` bounds the retries.
   */
  retriesLeft?: number | undefined;
}

/** What the pipeline does next. */
export type RetryDecision =
  { action: 'return' } | { action: 'retry'; delayMs: number } | { action: 'throw' };

/** Methods whose repetition may do something twice. */
const NON_IDEMPOTENT_METHODS = new Set(['POST', 'PATCH']);

const RETURN: RetryDecision = { action: 'return' };
const THROW: RetryDecision = { action: 'throw' };

function backoff(result: AttemptResult, policy: RetryPolicy, state: CallState): number {
  if (result.kind === 'answer' && result.retryAfterMs !== undefined) {
    return Math.min(result.retryAfterMs, policy.maxRetryAfterMs);
  }
  // Exponential backoff with full jitter, so clients that failed together spread out.
  return state.random * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (state.attempt - 1));
}

/** Whether the result is worth another attempt, before counting attempts and time. */
function worthRetrying(result: AttemptResult, policy: RetryPolicy, idempotent: boolean): boolean {
  switch (result.kind) {
    case 'fatal':
      return false;
    case 'no-answer':
      return !result.sent || idempotent || policy.retryWrites;
    case 'answer':
      // A 2xx was carried out: a POST is never sent again after it, whatever `retryWrites` says.
      if (result.status < 300) return result.malformed === true && idempotent;
      if (!policy.retryStatuses.has(result.status)) return false;
      // A 429 was refused before it was processed.
      return result.status === 429 || idempotent || policy.retryWrites;
  }
}

/**
 * Decides what follows one attempt: return the response, retry after a delay, or throw the
 * attempt's error (a 401 reaches it only once the credentials step could not repair it). Pure: the same inputs give the same answer.
 */
export function decideRetry(
  result: AttemptResult,
  policy: RetryPolicy,
  state: CallState,
): RetryDecision {
  if (
    result.kind === 'answer' &&
    result.status >= 200 &&
    result.status < 300 &&
    result.malformed !== true
  ) {
    return RETURN;
  }
  const idempotent = !NON_IDEMPOTENT_METHODS.has(state.method);
  const budgetLeft = state.retriesLeft === undefined || state.retriesLeft > 0;
  if (worthRetrying(result, policy, idempotent) && state.attempt < policy.attempts && budgetLeft) {
    const delayMs = backoff(result, policy, state);
    if (state.now + delayMs < state.deadline) return { action: 'retry', delayMs };
  }
  const httpError = result.kind === 'answer' && result.status >= 300 && result.malformed !== true;
  return httpError && !policy.throwHttpErrors ? RETURN : THROW;
}
