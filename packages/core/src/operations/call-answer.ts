import { ApiError, CORRELATION_ID_HEADERS } from '@partner-apis/errors';
import type { ResponseMeta, WithResponse } from './api-promise.js';
import type { PipelineReply } from '../pipeline/call.js';
import { responseOf } from '../pipeline/fetch-shape.js';
import { publicHeaders } from '../transport/header-map.js';

/** What a resource method gets back: the parsed body (if any), the response and its metadata. */
export interface CallResult extends ResponseMeta {
  readonly data: unknown;
  /** The response's status, without making the `Response`. */
  readonly status: number;
}

/**
 * The answer of one call as a resource method returns it: its data, and its `Response`, made
 * only when the caller asks for it (`withResponse()`), since most callers want the data and a
 * `Response` costs a few microseconds. A class, so every result has one shape: object literals
 * with a getter each would not, and V8 then moves the results of later calls to the old
 * generation, where every collection has to copy their bodies.
 */
class CallAnswer<T> implements CallResult, WithResponse<T> {
  readonly data: T;
  readonly status: number;
  readonly requestId: string | undefined;
  readonly correlationId: string | undefined;
  readonly conversationId: string | undefined;
  readonly attempts: number;
  readonly #reply: PipelineReply;
  #response: Response | undefined;
  #headers: Headers | undefined;

  constructor(reply: PipelineReply, data: T, correlationId: string | undefined) {
    this.data = data;
    this.status = reply.status;
    this.requestId = reply.requestId;
    this.correlationId = correlationId;
    this.conversationId = reply.conversationId;
    this.attempts = reply.attempts;
    this.#reply = reply;
  }

  get headers(): Headers {
    return (this.#headers ??= publicHeaders(this.#reply.answer.headers));
  }

  get response(): Response {
    return (this.#response ??= responseOf(this.#reply));
  }

  withData<U>(data: U): CallAnswer<U> {
    const answer = new CallAnswer(this.#reply, data, this.correlationId);
    answer.#response = this.#response;
    return answer;
  }
}

/** The call's result, with the correlation id the answer's headers carry. */
export function callResult(reply: PipelineReply, data: unknown): CallResult {
  const { headers } = reply.answer;
  const correlationHeader = CORRELATION_ID_HEADERS.find((h) => headers.has(h));
  const correlationId =
    correlationHeader === undefined ? undefined : (headers.get(correlationHeader) ?? undefined);
  return new CallAnswer(reply, data, correlationId);
}

/**
 * `result` with other data: what a resource method returns of a call. The `Response` stays
 * unmade until asked for.
 */
export function withData<T>(result: CallResult, data: T): WithResponse<T> {
  if (result instanceof CallAnswer) return result.withData(data);
  return { ...result, data };
}

/**
 * The data of a call (or of a `raw` call); an `ApiError` (code `unexpected_response`) when a
 * 2xx response had no body the spec promises.
 */
export function expectData<T>(
  result: { data?: T } & ({ status: number } | { response: Response }),
  operation: string,
): Exclude<T, undefined> {
  if (result.data !== undefined) return result.data as Exclude<T, undefined>;
  // A call's result carries its status; a `raw` call's, its response.
  const status = 'status' in result ? result.status : result.response.status;
  throw new ApiError({
    status,
    code: 'unexpected_response',
    message: `${operation} answered ${status} without a body`,
  });
}
