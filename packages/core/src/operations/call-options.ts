import { InvalidArgumentError } from '@partner-apis/errors';
import { TIMEOUT_OPTION_NAMES } from '../pipeline/attempt.js';
import type { OptionNames } from '../pipeline/option-names.js';

/** The timeouts of one call, where they differ from the client's. */
export interface CallTimeoutOptions {
  /** One attempt, from sending to the end of the body. */
  attemptMs?: number | undefined;
  /** The whole call, retries and waits included. */
  totalMs?: number | undefined;
}

/** The retries of one call, where they differ from the client's. */
export interface CallRetryOptions {
  /** Attempts, the first included: 1–10. */
  attempts?: number | undefined;
  /** Also resend a write after it may have reached the server (if it is safe to repeat). */
  retryWrites?: boolean | undefined;
}

/** What every resource method's options may carry. */
export interface CallOptions {
  /** Aborts the call. */
  signal?: AbortSignal | undefined;
  /** This call's timeouts; the client's by default. */
  timeout?: CallTimeoutOptions | undefined;
  /** This call's retries; the client's by default. */
  retry?: CallRetryOptions | undefined;
  /**
   * The `X-Z-Conversation-Id` of this call, where the operation declares one, to tie it to a
   * flow that started elsewhere; the client's by default.
   */
  conversationId?: string | undefined;
}

const CALL_RETRY: Record<keyof CallRetryOptions, true> = { attempts: true, retryWrites: true };

/** What the options of one call may carry (`signal`, `timeout`, `retry`, `conversationId`). */
export const CALL_OPTION_NAMES: OptionNames = {
  names: { signal: true, timeout: true, retry: true, conversationId: true } satisfies Record<
    keyof CallOptions,
    true
  >,
  nested: {
    timeout: {
      names: TIMEOUT_OPTION_NAMES satisfies Record<keyof CallTimeoutOptions, true>,
    },
    retry: { names: CALL_RETRY },
  },
};

/**
 * True when `value` can be sent as a header value: a non-empty string of Latin-1 characters
 * without line breaks or NUL, which `Headers` and `node:http` would otherwise refuse with a raw
 * `TypeError`.
 *
 * @example
 * isHeaderValue('flow-42'); // true
 * isHeaderValue('a\r\nb');  // false
 * isHeaderValue('Zürich ☂'); // false: ☂ is not Latin-1
 */
export function isHeaderValue(value: unknown): value is string {
  return (
    typeof value === 'string' && value.trim() !== '' && /^[\t\x20-\x7e\x80-\xff]+$/.test(value)
  );
}

/**
 * Checks the options object of one resource call before any request: options that are not an
 * object, a `signal` that is not an `AbortSignal`, or a `conversationId` that cannot be a header
 * value are an `InvalidArgumentError` naming the operation. Gives `{}` for no options.
 *
 * @example
 * const { signal } = checkCallOptions(options, 'approvals.list');
 */
export function checkCallOptions<T extends CallOptions>(
  options: T | undefined,
  operation: string,
): Partial<T> {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('options', 'must be an object', operation);
  }
  const { signal, conversationId, timeout, retry } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new InvalidArgumentError('options.signal', 'must be an AbortSignal', operation);
  }
  if (conversationId !== undefined && !isHeaderValue(conversationId)) {
    throw new InvalidArgumentError(
      'options.conversationId',
      'must be a non-empty string of Latin-1 characters without line breaks',
      operation,
    );
  }
  checkOverrides(timeout, retry, operation);
  return options;
}

/** Node's timers hold at most this many ms: a longer one would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

function section(value: unknown, name: string, operation: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null) {
    throw new InvalidArgumentError(`options.${name}`, 'must be an object', operation);
  }
  return value as Record<string, unknown>;
}

function checkOverrides(timeout: unknown, retry: unknown, operation: string): void {
  const times = section(timeout, 'timeout', operation);
  for (const name of ['attemptMs', 'totalMs']) {
    const value = times[name];
    if (
      value !== undefined &&
      (typeof value !== 'number' || !Number.isFinite(value) || value < 1 || value > MAX_TIMER_MS)
    ) {
      throw new InvalidArgumentError(
        `options.timeout.${name}`,
        `must be a number from 1 to ${MAX_TIMER_MS} (got ${String(value)})`,
        operation,
      );
    }
  }
  const retries = section(retry, 'retry', operation);
  const { attempts, retryWrites } = retries;
  if (
    attempts !== undefined &&
    (typeof attempts !== 'number' || !Number.isInteger(attempts) || attempts < 1 || attempts > 10)
  ) {
    throw new InvalidArgumentError(
      'options.retry.attempts',
      `must be an integer from 1 to 10 (got ${String(attempts)})`,
      operation,
    );
  }
  if (retryWrites !== undefined && typeof retryWrites !== 'boolean') {
    throw new InvalidArgumentError('options.retry.retryWrites', 'must be true or false', operation);
  }
}
