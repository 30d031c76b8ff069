/** Any body `fetch` accepts. */
export type RequestBody = NonNullable<RequestInit['body']>;

const STANDARD_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);

/**
 * What openapi-fetch builds for each call of a service client in place of a `Request`: a
 * `Request` and its abort signal cost more CPU than the whole pipeline, and the pipeline sends
 * its own request per attempt anyway. It carries what `fetch` needs, and turns into a real
 * `Request` for middleware that asks for one (`clone`, `arrayBuffer`, `text`, `json`).
 */
export class PipelineRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: RequestBody | null;
  readonly signal: AbortSignal | undefined;

  constructor(input: string | URL, init: RequestInit = {}) {
    this.url = String(input);
    const method = init.method ?? 'GET';
    this.method = STANDARD_METHODS.has(method.toUpperCase()) ? method.toUpperCase() : method;
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.body = init.body ?? null;
    this.signal = init.signal ?? undefined;
  }

  /** The same request as a real `Request`. */
  toRequest(): Request {
    return new Request(this.url, {
      method: this.method,
      headers: this.headers,
      body: this.body,
      signal: this.signal ?? null,
    });
  }

  clone(): Request {
    return this.toRequest();
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.toRequest().arrayBuffer();
  }

  text(): Promise<string> {
    return this.toRequest().text();
  }

  json(): Promise<unknown> {
    return this.toRequest().json();
  }
}
