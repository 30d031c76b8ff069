import { checkCallOptions, isHeaderValue } from '@partner-apis/core';
import { InvalidArgumentError } from '@partner-apis/errors';

/** Options of every liability call. */
export interface LiabilityCallOptions {
  /**
   * The `X-Z-Conversation-Id` of this call, to tie it to a flow that started elsewhere; the
   * client's (or the `conversation()`'s) id by default.
   */
  conversationId?: string | undefined;
  /** Aborts the call. */
  signal?: AbortSignal | undefined;
}

/** The tracing header and abort signal one call hands openapi-fetch. */
export interface CallInit {
  readonly header: { readonly 'X-Z-Conversation-Id': string };
  readonly signal: AbortSignal | undefined;
}

/** The `CallInit` of calls without options, built once per conversation. */
export function boundCallInit(conversationId: string): CallInit {
  return { header: { 'X-Z-Conversation-Id': conversationId }, signal: undefined };
}

/** Checks the options of one call; an `InvalidArgumentError` names a bad one before any request. */
export function callInit(options: unknown, operation: string, bound: CallInit): CallInit {
  if (options === undefined) return bound;
  const { conversationId, signal } = checkCallOptions(options as LiabilityCallOptions, operation);
  if (conversationId === undefined) return signal === undefined ? bound : { ...bound, signal };
  if (!isHeaderValue(conversationId)) {
    throw new InvalidArgumentError(
      'options.conversationId',
      'must be a non-empty string without line breaks',
      operation,
    );
  }
  return { header: { 'X-Z-Conversation-Id': conversationId }, signal };
}

/** Refuses a value that is not a plain object, before any request. */
export function requireObject(value: unknown, argument: string, operation: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(argument, 'must be an object', operation);
  }
}
