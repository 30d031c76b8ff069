import { InvalidArgumentError } from '@partner-apis/errors';

/** What every resource method's options may carry. */
export interface CallOptions {
  /** Aborts the call. */
  signal?: AbortSignal | undefined;
  /**
   * The `X-Z-Conversation-Id` of this call, where the operation declares one, to tie it to a
   * flow that started elsewhere; the client's by default.
   */
  conversationId?: string | undefined;
}

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
  return options;
}
