import { ApiError, MAX_RAW_BODY_LENGTH, redactUrl, type FailedRequest } from '@partner-apis/errors';
import type { Answer } from './exchange.js';
import { publicHeaders } from './header-map.js';

const decoder = new TextDecoder();

/** The body as text: through `Buffer` where there is one, which is quicker than TextDecoder. */
export function textOf(bytes: Uint8Array): string {
  const NodeBuffer = globalThis.Buffer;
  if (NodeBuffer === undefined) return decoder.decode(bytes);
  const buffer = NodeBuffer.isBuffer(bytes)
    ? bytes
    : NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Like TextDecoder, drop a byte order mark.
  return buffer.toString(
    'utf8',
    buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0,
  );
}

/** A copy the caller may keep and change (a Node `Buffer` may share a pooled `ArrayBuffer`). */
function copyOf(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

/** Methods after which a failure may leave the server changed. */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** True for a method whose request may have changed something on the server. */
export function isWrite(method: string): boolean {
  return WRITE_METHODS.has(method);
}

/** An `ApiError` about an answer the pipeline cannot use: `why`, after the request it names. */
export function unusableAnswer(
  status: number,
  why: string,
  request: FailedRequest,
  rawBody?: string,
): ApiError {
  const write = isWrite(request.method);
  const effect = write ? '; the server received the request, so it may have taken effect' : '';
  return new ApiError({
    status,
    code: 'malformed_response',
    message: `${request.method} ${redactUrl(request.url)} ${why}${effect}`,
    request,
    rawBody,
    mayHaveTakenEffect: write,
  });
}

interface BufferedParts {
  answer: Answer;
  json: { value: unknown } | undefined;
  request: FailedRequest;
}

// Response's type declares its methods as properties, which a subclass cannot override in
// TypeScript; at runtime they are ordinary prototype methods.
type ResponseBase = new (body: null, init: ResponseInit) => object;

/**
 * The class is made on first use: reading the global `Response` loads Node's fetch
 * implementation, which costs tens of milliseconds at start-up that a client which never
 * answers a call should not pay.
 */
function defineBufferedResponse(Base: ResponseBase) {
  /**
   * A response whose body was read whole by the pipeline (so the per-attempt timeout covered
   * it, and a cut-off body could be retried). It serves the body from memory: rebuilding a
   * stream over the bytes with `new Response(bytes)` costs a fifth of a small call's throughput.
   * `Content-Length` gives the length of what it serves, so openapi-fetch always asks `json()`.
   */
  return class BufferedResponse extends Base {
    readonly #parts: BufferedParts;
    #headers: Headers | undefined;

    constructor(parts: BufferedParts) {
      super(null, { status: parts.answer.status, statusText: parts.answer.statusText });
      this.#parts = parts;
    }

    get headers(): Headers {
      return (this.#headers ??= exactLengthHeaders(this.#parts.answer));
    }

    get body(): ReadableStream<Uint8Array> | null {
      const { bytes } = this.#parts.answer;
      return bytes.byteLength === 0 ? null : new Response(copyOf(bytes)).body;
    }

    async arrayBuffer(): Promise<ArrayBuffer> {
      return copyOf(this.#parts.answer.bytes).buffer;
    }

    async text(): Promise<string> {
      return textOf(this.#parts.answer.bytes);
    }

    async json(): Promise<unknown> {
      const { answer, json, request } = this.#parts;
      if (json !== undefined) return json.value;
      const text = textOf(answer.bytes);
      try {
        return JSON.parse(text);
      } catch {
        const type = answer.headers.get('content-type') ?? 'no content type';
        const why = `answered ${answer.status} with a body that is not JSON (${type}, ${answer.bytes.byteLength} bytes)`;
        throw unusableAnswer(answer.status, why, request, text.slice(0, MAX_RAW_BODY_LENGTH));
      }
    }

    async blob(): Promise<Blob> {
      const { answer } = this.#parts;
      return new Blob([copyOf(answer.bytes)], { type: answer.headers.get('content-type') ?? '' });
    }

    async formData(): Promise<FormData> {
      return new Response(copyOf(this.#parts.answer.bytes), { headers: this.headers }).formData();
    }

    clone(): Response {
      return new BufferedResponse(this.#parts) as unknown as Response;
    }
  };
}

/** The answer's headers with `Content-Length` set to the length of the (decoded) body. */
function exactLengthHeaders(answer: Answer): Headers {
  const { bytes } = answer;
  const headers = publicHeaders(answer.headers);
  const length = String(bytes.byteLength);
  if (headers.get('content-length') === length && !headers.has('transfer-encoding')) return headers;
  const exact = new Headers(headers);
  exact.delete('transfer-encoding');
  exact.set('content-length', length);
  return exact;
}

let BufferedResponse: ReturnType<typeof defineBufferedResponse> | undefined;

/**
 * A `Response` serving the body of `answer` from memory. `json` is the body already parsed by
 * the pipeline, so `json()` does not parse it again; a body that does not parse makes `json()`
 * throw an `ApiError` (code `malformed_response`) rather than a `SyntaxError`.
 */
export function bufferedResponse(
  answer: Answer,
  request: FailedRequest,
  json?: { value: unknown },
): Response {
  BufferedResponse ??= defineBufferedResponse(Response as unknown as ResponseBase);
  return new BufferedResponse({ answer, json, request }) as unknown as Response;
}

/**
 * Parses a 2xx JSON body once, in the attempt, so a body cut short in transit is a failure of
 * that attempt (and can be retried) rather than an error in the caller's hands.
 * `undefined` means the body is not JSON-typed or is empty; `null` means it did not parse.
 */
export function parseJsonBody(answer: Answer): { value: unknown } | null | undefined {
  const { bytes, headers } = answer;
  if (bytes.byteLength === 0 || !(headers.get('content-type') ?? '').includes('json')) {
    return undefined;
  }
  try {
    return { value: JSON.parse(textOf(bytes)) };
  } catch {
    return null;
  }
}
