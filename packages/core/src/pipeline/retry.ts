import { ConfigurationError, type PartnerApisError } from '@partner-apis/errors';
import type { Observer } from '../observe/observer.js';
import { number, section, type OptionFailure } from './options.js';
import { attemptResultOf, type Step } from './call.js';
import { decideRetry, type RetryPolicy } from './retry-decision.js';

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

/** The option names of `retry`, each checked against the type. */
export const RETRY_OPTION_NAMES: Record<keyof RetryOptions, true> = {
  attempts: true,
  baseDelayMs: true,
  maxDelayMs: true,
  maxRetryAfterMs: true,
  retryWrites: true,
};

/** The longest wait a timer can take: Node fires a longer one at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** The `retry` option, checked. */
export type ResolvedRetry = Required<RetryOptions>;

const RETRY_DEFAULTS: ResolvedRetry = {
  attempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 8000,
  maxRetryAfterMs: 30_000,
  retryWrites: false,
};

/**
 * Checks the `retry` option: a client's once, when it is built, over the defaults; a call's
 * over its client's, failing as `fail` says.
 */
export function resolveRetryOptions(
  options: { retry?: RetryOptions | undefined },
  fallback = RETRY_DEFAULTS,
  fail?: OptionFailure,
): ResolvedRetry {
  const retry = section('retry', options.retry, undefined, fail);
  if (retry.retryWrites !== undefined && typeof retry.retryWrites !== 'boolean') {
    const problem = 'must be true or false';
    throw (
      fail?.('retry.retryWrites', problem) ?? new ConfigurationError('retry.retryWrites', problem)
    );
  }
  const delay = (name: keyof ResolvedRetry) =>
    number(
      `retry.${name}`,
      retry[name],
      { fallback: Number(fallback[name]), min: 0, max: MAX_TIMER_MS },
      fail,
    );
  return {
    attempts: number(
      'retry.attempts',
      retry.attempts,
      { fallback: fallback.attempts, min: 1, max: 10, integer: true },
      fail,
    ),
    baseDelayMs: delay('baseDelayMs'),
    maxDelayMs: delay('maxDelayMs'),
    maxRetryAfterMs: delay('maxRetryAfterMs'),
    retryWrites: (retry.retryWrites as boolean | undefined) ?? fallback.retryWrites,
  };
}

/** What the retry step needs beyond the policy: its events, its waits and its dice. */
export interface RetryRuntime {
  readonly observer: Observer;
  readonly clock: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly random: () => number;
}

/**
 * The step that sends an attempt again when `decideRetry` says so, within the call's retry
 * budget (which its token requests share) and before its deadline; an answer the policy does
 * not throw is returned as it is.
 */
export function retryStep(
  policy: Pick<RetryPolicy, 'retryStatuses' | 'throwHttpErrors'>,
  run: RetryRuntime,
): Step {
  return async (call, next) => {
    for (;;) {
      try {
        return await next(call);
      } catch (error) {
        const result = attemptResultOf(error);
        if (result === undefined) throw error;
        const decision = decideRetry(
          result,
          { ...call.retry, ...policy },
          {
            attempt: call.attempt,
            method: call.method,
            now: run.clock(),
            deadline: call.scope.deadline,
            random: run.random(),
            retriesLeft: call.budget.retriesLeft,
          },
        );
        if (decision.action === 'return' && result.kind === 'answer' && result.answer) {
          return { answer: result.answer };
        }
        if (decision.action !== 'retry') throw error;
        const { delayMs } = decision;
        run.observer.retry({
          method: call.method,
          url: call.shownUrl(),
          attempt: call.attempt,
          delayMs,
          error: error as PartnerApisError,
        });
        call.budget.retriesLeft -= 1;
        await run.sleep(delayMs, call.scope.signal);
        call.attempt += 1;
      }
    }
  };
}
