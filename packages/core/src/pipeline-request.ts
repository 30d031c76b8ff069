import { InvalidArgumentError } from '@partner-apis/errors';

/** Any body `fetch` accepts. */
export type RequestBody = NonNullable<RequestInit['body']>;

const STANDARD_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);

/** A header value `Headers` accepts: Latin-1 only, no line breaks or NUL. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The headers of a request, or an `InvalidArgumentError` naming the header whose value cannot
 * be sent (a character outside Latin-1, a line break), where `Headers` throws a bare TypeError.
 */
function toHeaders(init: RequestInit['headers']): Headers {
  try {
    return new Headers(init);
  } catch (error) {
    const entries =
      init === undefined
        ? []
        : Array.isArray(init)
          ? (init as [string, string][])
          : Object.entries(init as Record<string, string>);
    const bad = entries.find(([, value]) => !HEADER_VALUE.test(String(value).trim()));
    const name = bad === undefined ? 'headers' : `header ${bad[0]}`;
    const problem =
      bad === undefined
        ? `cannot be sent (${error instanceof Error ? error.message : String(error)})`
        : 'must hold Latin-1 characters only, without line breaks';
    throw new InvalidArgumentError(name, problem);
  }
}

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
    this.headers = init.headers instanceof Headers ? init.headers : toHeaders(init.headers);
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
