import { isLoopbackHost } from '@partner-apis/auth';
import { ApiError, redactUrl, type FailedRequest } from '@partner-apis/errors';
import type { RequestBody } from './pipeline-request.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** One HTTP exchange as the transport sends it; `fetch` must not follow redirects itself. */
export interface Exchange {
  url: string;
  method: string;
  headers: Headers;
  body: RequestBody | undefined;
  signal: AbortSignal;
}

function refused(response: Response, request: FailedRequest, why: string): ApiError {
  return new ApiError({
    status: response.status,
    code: 'redirect_refused',
    message: `${request.method} ${redactUrl(request.url)} answered ${response.status}: ${why}`,
    request,
  });
}

/** True for a redirect status with a location, which `followRedirects` takes over. */
export function isRedirect(response: Response): boolean {
  return REDIRECT_STATUSES.has(response.status) && response.headers.has('location');
}

/**
 * Follows the redirect `response` answered to `exchange`, by hand (Node's fetch would forward
 * every custom header, credentials included, to any origin). A redirect to another origin goes
 * without the credential headers, and they stay off for the rest of the chain; a redirect to
 * plain HTTP (other than loopback) or past `maxRedirects` is refused with an `ApiError`.
 */
export async function followRedirects(
  fetch: typeof globalThis.fetch,
  exchange: Exchange,
  redirect: Response,
  maxRedirects: number,
  secretHeaderNames: readonly string[],
  request: FailedRequest,
): Promise<Response> {
  let { url, method, headers, body } = exchange;
  let response = redirect;
  let stripped = false;
  for (let hop = 1; isRedirect(response); hop += 1) {
    await response.body?.cancel();
    if (hop > maxRedirects) throw refused(response, request, `more than ${maxRedirects} redirects`);
    let next: URL;
    try {
      next = new URL(response.headers.get('location') ?? '', url);
    } catch {
      throw refused(response, request, 'a redirect to an invalid location');
    }
    if (
      next.protocol !== 'https:' &&
      !(next.protocol === 'http:' && isLoopbackHost(next.hostname))
    ) {
      throw refused(response, request, `a redirect to ${redactUrl(next.href)}, which is not https`);
    }
    if (!stripped && next.origin !== new URL(exchange.url).origin) {
      headers = new Headers(headers);
      for (const name of secretHeaderNames) headers.delete(name);
      stripped = true;
    }
    // As browsers do: 303, and 301/302 after a POST, turn into a GET without a body.
    if (
      (response.status === 303 && method !== 'HEAD') ||
      ((response.status === 301 || response.status === 302) && method === 'POST')
    ) {
      method = 'GET';
      body = undefined;
      headers = new Headers(headers);
      headers.delete('content-type');
      headers.delete('content-length');
    }
    url = next.href;
    response = await fetch(url, {
      method,
      headers,
      body,
      signal: exchange.signal,
      redirect: 'manual',
    });
  }
  return response;
}
