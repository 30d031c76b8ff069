import type { SendKit } from '@partner-apis/core/internal';
import { Agent, type Dispatcher } from 'undici';
import { toRequestParts } from './request-parts.js';
import { decodeBody } from './response-body.js';
import { UndiciResponse } from './undici-response.js';
import { NULL_BODY_STATUSES, createUndiciSend, headersOf } from './undici-send.js';

/** Options of {@link createUndiciFetch}. */
export interface UndiciFetchOptions {
  /** Most connections kept open per origin; unlimited by default, like `fetch`. */
  connections?: number;
  /** Requests sent on one connection before the first answer arrives; 1 (no pipelining) by default. */
  pipelining?: number;
  /** How long an idle connection stays open, in milliseconds; 4000 by default. */
  keepAliveTimeout?: number;
  /** How long establishing a connection may take, in milliseconds; 10000 by default. */
  connectTimeout?: number;
  /**
   * An undici dispatcher to send through instead of the transport's own pool, e.g. a
   * `ProxyAgent`. The options above are then ignored and `close()` leaves it open.
   */
  dispatcher?: Dispatcher;
}

/** A `fetch`-compatible function over `undici.request`, with the pool it owns. */
export interface UndiciFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Closes the pool once requests in flight have finished; later calls reject. */
  close(): Promise<void>;
}

/**
 * Where a partner-apis client looks for a sender a `fetch` offers (`SEND_KEY` of
 * `@partner-apis/core/internal`): a registered symbol, so this package needs no import of core.
 */
const SEND_KEY = Symbol.for('partner-apis.send');

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function checkCount(name: keyof UndiciFetchOptions, value: unknown, min: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new RangeError(
      `createUndiciFetch: ${name} must be an integer of at least ${min}, got ${String(value)}`,
    );
  }
}

function createAgent(options: UndiciFetchOptions): Agent {
  checkCount('connections', options.connections, 1);
  checkCount('pipelining', options.pipelining, 1);
  checkCount('keepAliveTimeout', options.keepAliveTimeout, 1);
  checkCount('connectTimeout', options.connectTimeout, 1);
  return new Agent({
    ...(options.connections !== undefined && { connections: options.connections }),
    ...(options.pipelining !== undefined && { pipelining: options.pipelining }),
    ...(options.keepAliveTimeout !== undefined && { keepAliveTimeout: options.keepAliveTimeout }),
    ...(options.connectTimeout !== undefined && { connect: { timeout: options.connectTimeout } }),
  });
}

/**
 * Creates a `fetch`-compatible function that sends over `undici.request` through a keep-alive
 * connection pool: the opt-in Node transport of the partner-apis clients, for less CPU per
 * request than the global `fetch`.
 *
 * It behaves like `fetch` with these differences: redirects are never followed (a 3xx is
 * returned as it is, so the caller decides what a redirect may carry; `redirect: 'error'`
 * still rejects), and a `Request`'s body is read into memory before sending. Failures have
 * `fetch`'s shapes: an aborted call rejects with the signal's reason; a network failure
 * rejects with `TypeError('fetch failed')` whose `cause` is undici's error with its `code`
 * (`ECONNREFUSED`, `UND_ERR_SOCKET`, `UND_ERR_CONNECT_TIMEOUT`, …); a connection lost
 * mid-body fails the body stream with `TypeError('terminated')`, the network error as `cause`.
 *
 * Given as a client's `fetch`, it is not called as a `fetch`: the client finds the sender the
 * function offers under `Symbol.for('partner-apis.send')` and sends through the same pool with
 * it, reading each body whole without building a `Response`.
 *
 * @example
 * import { createUndiciFetch } from '@partner-apis/transport-undici';
 * import { createApprovalsClient } from '@partner-apis/approvals';
 *
 * const fetch = createUndiciFetch({ connections: 32 });
 * const client = createApprovalsClient({ baseUrl, credentials, fetch });
 * // … when the process shuts down:
 * await fetch.close();
 */
export function createUndiciFetch(options: UndiciFetchOptions = {}): UndiciFetch {
  const owned = options.dispatcher === undefined;
  const dispatcher = options.dispatcher ?? createAgent(options);

  const undiciFetch = async (input: string | URL | Request, init?: RequestInit) => {
    const parts = await toRequestParts(input, init);
    const { signal } = parts;
    signal?.throwIfAborted();

    let answer: Dispatcher.ResponseData;
    try {
      answer = await dispatcher.request({
        origin: parts.url.origin,
        path: parts.url.pathname + parts.url.search,
        method: parts.method,
        headers: parts.headers,
        body: parts.body as Dispatcher.DispatchOptions['body'],
        signal: signal ?? null,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new TypeError('fetch failed', { cause: error });
    }

    const { statusCode, statusText, headers: rawHeaders, body } = answer;
    if (
      parts.redirect === 'error' &&
      REDIRECT_STATUSES.has(statusCode) &&
      rawHeaders['location'] !== undefined
    ) {
      body.dump().catch(() => undefined);
      throw new TypeError('fetch failed', { cause: new Error('unexpected redirect') });
    }
    // The Response constructor refuses a status outside 200–599, which a server may still send;
    // fetch hands such a status over as it is, and so does this transport.
    const usual = statusCode >= 200 && statusCode <= 599;
    const responseInit = {
      status: usual ? statusCode : 500,
      statusText,
      headers: headersOf(rawHeaders),
    };
    let response: Response;
    if (NULL_BODY_STATUSES.has(statusCode) || parts.method === 'HEAD') {
      // Free the connection for the next request.
      body.dump().catch(() => undefined);
      response = new Response(null, responseInit);
      Object.defineProperty(response, 'url', { value: parts.url.href });
    } else {
      const encoding = rawHeaders['content-encoding'];
      const source = decodeBody(body, typeof encoding === 'string' ? encoding : undefined);
      response = new UndiciResponse(source, responseInit, parts.url.href, signal);
    }
    if (!usual) {
      Object.defineProperties(response, { status: { value: statusCode }, ok: { value: false } });
    }
    return response;
  };

  return Object.assign(undiciFetch, {
    close: () => (owned ? dispatcher.close() : Promise.resolve()),
    // What a client given this function sends through instead of calling it.
    [SEND_KEY]: (kit: SendKit) => createUndiciSend(dispatcher, kit),
  });
}
