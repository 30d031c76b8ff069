import { InvalidArgumentError } from '@partner-apis/errors';

/** What every resource method's options may carry. */
export interface CallOptions {
  /** Aborts the call. */
  signal?: AbortSignal | undefined;
}

/**
 * Checks the options object of one resource call before any request: options that are not an
 * object, or a `signal` that is not an `AbortSignal`, are an `InvalidArgumentError` naming the
 * operation. Gives `{}` for no options.
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
  const { signal } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new InvalidArgumentError('options.signal', 'must be an AbortSignal', operation);
  }
  return options;
}
