import { ConfigurationError } from '@partner-apis/errors';
import type { Step } from './call.js';
import type { Resolver } from './options.js';

export const REQUEST_ID_HEADER = 'x-z-request-id';
export const CONVERSATION_ID_HEADER = 'x-z-conversation-id';

/** How calls are tied together. */
export interface RequestIdOptions {
  /**
   * `per-client`: one `X-Z-Conversation-Id` for every call of the client; `per-call`: a fresh
   * one per call. A request that carries the header keeps its own. None by default.
   */
  conversationId?: 'per-client' | 'per-call' | undefined;
}

/** The conversation id of the client's calls: one for all, `per-call`, or none. */
export type ResolvedConversation = string | 'per-call' | undefined;

/**
 * Checks `conversationId` once, when the client is built; `per-client` draws the client's id.
 *
 * @example
 * resolveRequestIdOptions({ conversationId: 'per-call' }); // 'per-call'
 */
export const resolveRequestIdOptions: Resolver<RequestIdOptions, ResolvedConversation> = ({
  conversationId,
}) => {
  if (conversationId === undefined) return undefined;
  if (conversationId === 'per-call') return 'per-call';
  if (conversationId === 'per-client') return globalThis.crypto.randomUUID();
  throw new ConfigurationError(
    'conversationId',
    `must be per-client or per-call (got ${String(conversationId)})`,
  );
};

/** The conversation id one call sends: its own header's, else the client's. */
export function conversationOf(headers: Headers, client: ResolvedConversation): string | undefined {
  return (
    headers.get(CONVERSATION_ID_HEADER) ??
    (client === 'per-call' ? globalThis.crypto.randomUUID() : client)
  );
}

/**
 * The step that gives every attempt a fresh `X-Z-Request-Id` (and the call's conversation id),
 * so each request the upstream logs can be told apart, and named in the attempt's errors.
 */
export const requestIdStep: Step = (call, next) => {
  const requestId = globalThis.crypto.randomUUID();
  const { headers, conversationId } = call;
  headers.set(REQUEST_ID_HEADER, requestId);
  if (conversationId !== undefined) headers.set(CONVERSATION_ID_HEADER, conversationId);
  call.request = { method: call.method, url: call.url, requestId, conversationId };
  return next(call);
};
