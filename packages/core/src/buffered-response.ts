const decoder = new TextDecoder();

// Response's type declares its methods as properties, which a subclass cannot override in
// TypeScript; at runtime they are ordinary prototype methods.
const ResponseBase = Response as unknown as new (body: null, init: ResponseInit) => object;

/**
 * A response whose body was read whole by the pipeline (so the per-attempt timeout covered it,
 * and a cut-off body could be retried). It serves the body from memory: rebuilding a stream
 * over the bytes with `new Response(bytes)` costs a fifth of the throughput of a small call.
 */
class BufferedResponse extends ResponseBase {
  readonly #bytes: ArrayBuffer;
  readonly #headers: Headers;
  readonly #json: { value: unknown } | undefined;

  constructor(response: Response, bytes: ArrayBuffer, json: { value: unknown } | undefined) {
    super(null, { status: response.status, statusText: response.statusText });
    this.#bytes = bytes;
    this.#headers = response.headers;
    this.#json = json;
  }

  get headers(): Headers {
    return this.#headers;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#bytes.byteLength === 0 ? null : new Response(this.#bytes).body;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#bytes.slice(0);
  }

  async text(): Promise<string> {
    return decoder.decode(this.#bytes);
  }

  async json(): Promise<unknown> {
    return this.#json === undefined ? JSON.parse(decoder.decode(this.#bytes)) : this.#json.value;
  }

  async blob(): Promise<Blob> {
    return new Blob([this.#bytes], { type: this.#headers.get('content-type') ?? '' });
  }

  async formData(): Promise<FormData> {
    return new Response(this.#bytes, { headers: this.#headers }).formData();
  }

  clone(): Response {
    return bufferedResponse(this as unknown as Response, this.#bytes, this.#json);
  }
}

/**
 * A `Response` serving `bytes` as the body of `response`, whose own body was read already.
 * `json` is the body already parsed by the pipeline, so `json()` does not parse it again.
 */
export function bufferedResponse(
  response: Response,
  bytes: ArrayBuffer,
  json?: { value: unknown },
): Response {
  return new BufferedResponse(response, bytes, json) as unknown as Response;
}

/**
 * Parses a 2xx JSON body once, in the attempt, so a body cut short in transit is a failure of
 * that attempt (and can be retried) rather than a `SyntaxError` in the caller's hands.
 * `undefined` means the body is not JSON-typed or is empty; `null` means it did not parse.
 */
export function parseJsonBody(
  headers: Headers,
  bytes: ArrayBuffer,
): { value: unknown } | null | undefined {
  if (bytes.byteLength === 0 || !(headers.get('content-type') ?? '').includes('json')) {
    return undefined;
  }
  try {
    return { value: JSON.parse(decoder.decode(bytes)) };
  } catch {
    return null;
  }
}
