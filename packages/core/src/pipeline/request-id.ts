import { ConfigurationError } from '@partner-apis/errors';
import type { Step } from './call.js';
import { section } from './options.js';

/** The headers the client sets itself, as the spec names them (`x-tracing`). */
export interface TracingHeaders {
  /** A fresh id per attempt, so each request the upstream logs can be told apart. */
  readonly requestId?: string | undefined;
  /** One id for the calls of a flow. */
  readonly conversationId?: string | undefined;
}

/** How calls are tied together. */
export interface RequestIdOptions {
  /**
   * `per-client`: one conversation id for every call of the client; `per-call`: a fresh one per
   * call. A request that carries the header keeps its own. None by default.
   */
  conversationId?: 'per-client' | 'per-call' | undefined;
  /**
   * The headers of the request id and the conversation id, as the spec names them; none by
   * default. The service packages give their specs'.
   */
  tracingHeaders?: TracingHeaders | undefined;
}

/** The tracing headers of a client, and its conversation id: one for all, `per-call`, or none. */
export interface ResolvedTracing {
  readonly headers: TracingHeaders;
  readonly conversation: string | 'per-call' | undefined;
}

/** Checks `conversationId` and `tracingHeaders` once, when the client is built. */
export function resolveRequestIdOptions(options: RequestIdOptions): ResolvedTracing {
  const headers = section('tracingHeaders', options.tracingHeaders) as TracingHeaders;
  const { conversationId } = options;
  if (conversationId === undefined || conversationId === 'per-call') {
    return { headers, conversation: conversationId };
  }
  if (conversationId === 'per-client') {
    return { headers, conversation: globalThis.crypto.randomUUID() };
  }
  throw new ConfigurationError(
    'conversationId',
    `must be per-client or per-call (got ${String(conversationId)})`,
  );
}

/** The conversation id one call sends: its own header's, else the client's. */
export function conversationOf(headers: Headers, tracing: ResolvedTracing): string | undefined {
  const name = tracing.headers.conversationId;
  if (name === undefined) return undefined;
  const { conversation } = tracing;
  return (
    headers.get(name) ??
    (conversation === 'per-call' ? globalThis.crypto.randomUUID() : conversation)
  );
}

/**
 * The step that gives every attempt a fresh request id (and the call's conversation id) in the
 * headers the spec names, so each request the upstream logs can be told apart, and named in
 * the attempt's errors; none where the spec names neither.
 */
export function requestIdStep({
  requestId: name,
  conversationId: conversation,
}: TracingHeaders): Step | undefined {
  if (name === undefined && conversation === undefined) return undefined;
  return (call, next) => {
    const { headers, conversationId } = call;
    const requestId = name === undefined ? undefined : globalThis.crypto.randomUUID();
    if (requestId !== undefined) headers.set(name!, requestId);
    if (conversationId !== undefined) headers.set(conversation!, conversationId);
    call.request = { method: call.method, url: call.url, requestId, conversationId };
    return next(call);
  };
}
