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

  constructor(response: Response, bytes: ArrayBuffer) {
    super(null, { status: response.status, statusText: response.statusText });
    this.#bytes = bytes;
    this.#headers = response.headers;
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
    return JSON.parse(decoder.decode(this.#bytes));
  }

  async blob(): Promise<Blob> {
    return new Blob([this.#bytes], { type: this.#headers.get('content-type') ?? '' });
  }

  async formData(): Promise<FormData> {
    return new Response(this.#bytes, { headers: this.#headers }).formData();
  }

  clone(): Response {
    return bufferedResponse(this as unknown as Response, this.#bytes);
  }
}

/** A `Response` serving `bytes` as the body of `response`, whose own body was read already. */
export function bufferedResponse(response: Response, bytes: ArrayBuffer): Response {
  return new BufferedResponse(response, bytes) as unknown as Response;
}
