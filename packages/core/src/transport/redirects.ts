import { isLoopbackHost } from '@partner-apis/auth';
import { ApiError, redactUrl, type FailedRequest } from '@partner-apis/errors';
import type { Answer, Exchange, Send } from './exchange.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function refused(answer: Answer, request: FailedRequest, why: string): ApiError {
  return new ApiError({
    status: answer.status,
    code: 'redirect_refused',
    message: `${request.method} ${redactUrl(request.url)} answered ${answer.status}: ${why}`,
    request,
  });
}

/** True for a redirect status with a location, which `followRedirects` takes over. */
export function isRedirect(answer: Answer): boolean {
  return REDIRECT_STATUSES.has(answer.status) && answer.headers.has('location');
}

/**
 * Follows the redirect `answer` gave to `exchange`, by hand (Node's fetch would forward every
 * custom header, credentials included, to any origin). A redirect to another origin goes
 * without the credential headers, and they stay off for the rest of the chain; a redirect to
 * plain HTTP (other than loopback) or past `maxRedirects` is refused with an `ApiError`.
 */
export async function followRedirects(
  send: Send,
  exchange: Exchange,
  redirect: Answer,
  maxRedirects: number,
  secretHeaderNames: readonly string[],
  request: FailedRequest,
): Promise<Answer> {
  let { url, method, headers, body } = exchange;
  let answer = redirect;
  let stripped = false;
  for (let hop = 1; isRedirect(answer); hop += 1) {
    if (hop > maxRedirects) throw refused(answer, request, `more than ${maxRedirects} redirects`);
    let next: URL;
    try {
      next = new URL(answer.headers.get('location') ?? '', url);
    } catch {
      throw refused(answer, request, 'a redirect to an invalid location');
    }
    if (
      next.protocol !== 'https:' &&
      !(next.protocol === 'http:' && isLoopbackHost(next.hostname))
    ) {
      throw refused(answer, request, `a redirect to ${redactUrl(next.href)}, which is not https`);
    }
    if (!stripped && next.origin !== new URL(exchange.url).origin) {
      headers = new Headers(headers);
      for (const name of secretHeaderNames) headers.delete(name);
      stripped = true;
    }
    // As browsers do: 303, and 301/302 after a POST, turn into a GET without a body.
    if (
      (answer.status === 303 && method !== 'HEAD') ||
      ((answer.status === 301 || answer.status === 302) && method === 'POST')
    ) {
      method = 'GET';
      body = undefined;
      headers = new Headers(headers);
      headers.delete('content-type');
      headers.delete('content-length');
    }
    url = next.href;
    answer = await send({
      url,
      method,
      headers,
      body,
      maxResponseBytes: exchange.maxResponseBytes,
      onWritten: exchange.onWritten,
      beforeWrite: exchange.beforeWrite,
      headersReceived: false,
      get signal() {
        return exchange.signal;
      },
      onAbort: (listener) => exchange.onAbort(listener),
    });
  }
  return answer;
}
