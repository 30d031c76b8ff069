import type { Dispatcher } from 'undici';

/** What `undici.request` needs from a `fetch(input, init)` call. */
export interface RequestParts {
  url: URL;
  method: Dispatcher.HttpMethod;
  /** Flat `[name, value, name, value, …]` list, the cheapest form undici accepts. */
  headers: string[];
  body: string | Uint8Array | AsyncIterable<Uint8Array> | null;
  signal: AbortSignal | undefined;
  redirect: NonNullable<RequestInit['redirect']>;
}

type Input = string | URL | Request;

// fetch upper-cases these methods and only these (Fetch standard, "normalize a method").
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

function isRequest(input: Input): input is Request {
  // Duck-typed so a Request from another copy of undici is accepted too.
  return typeof input === 'object' && !(input instanceof URL) && typeof input.url === 'string';
}

function normalizeMethod(method: string): Dispatcher.HttpMethod {
  const upper = method.toUpperCase();
  return (NORMALIZED_METHODS.has(upper) ? upper : method) as Dispatcher.HttpMethod;
}

function flattenHeaders(init: RequestInit['headers'], into: string[]): void {
  if (init === undefined) return;
  if (init instanceof Headers) {
    for (const [name, value] of init) into.push(name, value);
  } else if (Array.isArray(init)) {
    for (const pair of init) {
      if (pair.length !== 2) throw new TypeError('fetch: a header pair must have two entries');
      into.push(String(pair[0]).toLowerCase(), String(pair[1]));
    }
  } else {
    for (const [name, value] of Object.entries(init)) into.push(name.toLowerCase(), String(value));
  }
}

function hasHeader(headers: string[], name: string): boolean {
  for (let i = 0; i < headers.length; i += 2) if (headers[i] === name) return true;
  return false;
}

function isAsyncIterable(value: object): value is AsyncIterable<Uint8Array> {
  return Symbol.asyncIterator in value;
}

/**
 * Turns a `fetch` body into one undici sends as is, adding to `headers` (flat, lower-case names)
 * the `Content-Type` fetch would add for that kind of body when the caller set none.
 */
export async function toUndiciBody(
  body: NonNullable<RequestInit['body']>,
  headers: string[],
): Promise<RequestParts['body']> {
  if (typeof body === 'string') {
    if (!hasHeader(headers, 'content-type'))
      headers.push('content-type', 'text/plain;charset=UTF-8');
    return body;
  }
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof URLSearchParams) {
    if (!hasHeader(headers, 'content-type')) {
      headers.push('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    }
    return body.toString();
  }
  if (body instanceof ReadableStream || isAsyncIterable(body)) {
    // Streamed as it is produced, with chunked transfer encoding.
    return body as AsyncIterable<Uint8Array>;
  }
  // Blob, FormData, DataView and other views: let the platform encode them and pick the type.
  const encoded = new Response(body);
  const type = encoded.headers.get('content-type');
  if (type !== null && !hasHeader(headers, 'content-type')) headers.push('content-type', type);
  return new Uint8Array(await encoded.arrayBuffer());
}

/**
 * Reads a `fetch(input, init)` call the way `fetch` does: `init` overrides the fields of a
 * `Request` input. A `Request`'s body is read into memory so it goes out with a
 * `Content-Length`, as `fetch` sends bodies of known length.
 */
export async function toRequestParts(
  input: Input,
  init: RequestInit | undefined,
): Promise<RequestParts> {
  const request = isRequest(input) ? input : undefined;
  const url = new URL(request ? request.url : input instanceof URL ? input.href : String(input));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`fetch: unsupported protocol ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError('fetch: a URL with credentials cannot be requested');
  }
  const method = normalizeMethod(init?.method ?? request?.method ?? 'GET');
  const headers: string[] = [];
  flattenHeaders(init?.headers ?? request?.headers, headers);

  let body: RequestParts['body'] = null;
  if (init?.body !== undefined && init.body !== null) {
    body = await toUndiciBody(init.body, headers);
  } else if (init?.body === undefined && request?.body) {
    body = new Uint8Array(await request.arrayBuffer());
  }
  if (body !== null && (method === 'GET' || method === 'HEAD')) {
    throw new TypeError(`fetch: a ${method} request cannot have a body`);
  }

  return {
    url,
    method,
    headers,
    body,
    signal: init?.signal ?? request?.signal ?? undefined,
    redirect: init?.redirect ?? request?.redirect ?? 'follow',
  };
}
