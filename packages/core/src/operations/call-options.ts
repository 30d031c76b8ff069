import { InvalidArgumentError } from '@partner-apis/errors';
import {
  resolveAttemptOptions,
  TIMEOUT_OPTION_NAMES,
  type TimeoutOptions,
} from '../pipeline/attempt.js';
import type { CallOverrides } from '../pipeline/call.js';
import type { OptionNames } from '../pipeline/option-names.js';
import { resolveRetryOptions, RETRY_OPTION_NAMES, type RetryOptions } from '../pipeline/retry.js';

/** The timeouts of one call, where they differ from the client's. */
export type CallTimeoutOptions = TimeoutOptions;

/** The retries of one call, where they differ from the client's. */
export type CallRetryOptions = RetryOptions;

/** What every resource method's options may carry. */
export interface CallOptions {
  /** Aborts the call. */
  signal?: AbortSignal | undefined;
  /** This call's timeouts; the client's by default. */
  timeout?: CallTimeoutOptions | undefined;
  /** This call's retries; the client's by default. */
  retry?: CallRetryOptions | undefined;
  /**
   * The conversation id of this call, where the operation declares one (`x-tracing:
   * conversation-id`), to tie it to a flow that started elsewhere; the client's by default.
   */
  conversationId?: string | undefined;
}

/** What the options of one call may carry (`signal`, `timeout`, `retry`, `conversationId`). */
export const CALL_OPTION_NAMES: OptionNames = {
  names: { signal: true, timeout: true, retry: true, conversationId: true } satisfies Record<
    keyof CallOptions,
    true
  >,
  nested: { timeout: { names: TIMEOUT_OPTION_NAMES }, retry: { names: RETRY_OPTION_NAMES } },
};

/**
 * True when `value` can be sent as a header value: a non-empty string of Latin-1 characters
 * without line breaks or NUL, which `Headers` and `node:http` would otherwise refuse with a raw
 * `TypeError`.
 */
export function isHeaderValue(value: unknown): value is string {
  return (
    typeof value === 'string' && value.trim() !== '' && /^[\t\x20-\x7e\x80-\xff]+$/.test(value)
  );
}

/**
 * Checks the options object of one resource call before any request: options that are not an
 * object, a `signal` that is not an `AbortSignal`, a `conversationId` that cannot be a header
 * value, or a `timeout` or `retry` the client's own rules refuse are an `InvalidArgumentError`
 * naming the operation. Gives `{}` for no options.
 */
export function checkCallOptions<T extends CallOptions>(
  options: T | undefined,
  operation: string,
): Partial<T> {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('options', 'must be an object', operation);
  }
  const { signal, conversationId } = options;
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
  const overrides = overridesOf(options, operation);
  if (overrides !== undefined) {
    resolveAttemptOptions(overrides, undefined, overrides.fail);
    resolveRetryOptions(overrides, undefined, overrides.fail);
  }
  return options;
}

/** The `timeout` and `retry` of one call, for the pipeline to apply over its client's. */
export function overridesOf(
  { timeout, retry }: CallOptions,
  operation: string,
): CallOverrides | undefined {
  if (timeout === undefined && retry === undefined) return undefined;
  const fail = (option: string, problem: string) =>
    new InvalidArgumentError(`options.${option}`, problem, operation);
  return { timeout, retry, fail };
}
