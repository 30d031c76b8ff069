import { bufferedResponse } from '../transport/buffered-response.js';
import type { PipelineCall, PipelineReply } from './call.js';

const STANDARD_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);

/** A body `fetch` was given, as one the pipeline can send again on every attempt. */
async function replayable(body: RequestInit['body'] | ReadableStream | null | undefined) {
  if (body === null || body === undefined) return undefined;
  // A stream or a form can be read once only; text and bytes can be sent again as they are.
  if (typeof body === 'string' || body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    return body;
  }
  return new Response(body).arrayBuffer();
}

/**
 * The pipeline's call of what `fetch` was given: a `Request`, or a URL with an init (what a
 * custom auth scheme's token request and openapi-fetch's `raw` client hand over).
 */
export async function callOfFetch(
  input: Request | string | URL,
  init?: RequestInit,
): Promise<PipelineCall> {
  if (typeof input === 'string' || input instanceof URL) {
    const method = (init?.method ?? 'GET').toUpperCase();
    return {
      method: STANDARD_METHODS.has(method) ? method : (init?.method ?? 'GET'),
      url: String(input),
      headers: new Headers(init?.headers),
      body: await replayable(init?.body),
      signal: init?.signal ?? undefined,
    };
  }
  const request = init === undefined ? input : new Request(input, init);
  return {
    method: request.method,
    url: request.url,
    headers: new Headers(request.headers),
    body: request.body === null ? undefined : await request.arrayBuffer(),
    signal: request.signal,
  };
}

/** The pipeline's reply as a `Response`, its body served from memory. */
export function responseOf(reply: PipelineReply): Response {
  return bufferedResponse(reply.answer, reply.request, reply.json);
}
