import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Answer, Exchange, Send, SendKit } from '@partner-apis/core/internal';
import type { Dispatcher } from 'undici';
import { toUndiciBody } from './request-parts.js';
import { decodeBody } from './response-body.js';

/** Statuses whose response has no body (Fetch standard, "null body status"). */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

const NO_BYTES = new Uint8Array(0);

/**
 * undici's headers as a `Headers`; with `length`, those of the body as it is handed over: its
 * decoded length in `Content-Length`, and no `Transfer-Encoding`.
 */
export function headersOf(raw: IncomingHttpHeaders, length?: number): Headers {
  const headers = new Headers();
  for (const name in raw) {
    if (length !== undefined && (name === 'content-length' || name === 'transfer-encoding')) {
      continue;
    }
    const value = raw[name];
    if (typeof value === 'string') headers.append(name, value);
    else if (value !== undefined) for (const item of value) headers.append(name, item);
  }
  if (length !== undefined) headers.set('content-length', String(length));
  return headers;
}

/**
 * The `signal` undici is given: an `EventEmitter` costs far less than an `AbortSignal`, which
 * the exchange makes only when asked for one. undici aborts with an error of its own when it
 * fires; the sender rejects with `firedWith`, the exchange's reason, instead.
 */
class Aborter extends EventEmitter {
  fired = false;
  firedWith: unknown = undefined;

  fire(reason: unknown): void {
    this.fired = true;
    this.firedWith = reason;
    this.emit('abort');
  }
}

const ORIGIN_AND_PATH = /^([^:/?#]+:\/\/[^/?#]*)([^#]*)/;

/**
 * The origin and path (with the query) of an absolute URL the pipeline built: cheaper than
 * parsing it whole on every request, which `undici.request(url)` would do.
 */
function originAndPath(url: string): { origin: string; path: string } {
  const [, origin = url, rest = ''] = ORIGIN_AND_PATH.exec(url) ?? [];
  return { origin, path: rest.startsWith('/') ? rest : `/${rest}` };
}

/**
 * Reads a response body whole, decoded, counting decoded bytes against `limit`; past it the body
 * is destroyed, which closes the connection. A body that breaks off fails the way a `fetch` body
 * does (`TypeError('terminated')`, the network error as `cause`), or with the abort's reason.
 */
function readAnswer(
  response: Dispatcher.ResponseData,
  limit: number,
  kit: SendKit,
  aborter: Aborter,
): Promise<Answer> {
  const { statusCode: status, statusText, headers: raw, body } = response;
  const encoding = raw['content-encoding'];
  const source: Readable = decodeBody(body, typeof encoding === 'string' ? encoding : undefined);
  // undici fails a body that differs from its declared length, so a body not decoded is as long
  // as its headers say: one too long is refused unread, and the headers of one read are exact.
  const declared = source === body ? raw['content-length'] : undefined;
  if (Number(declared) > limit) {
    body.on('error', () => undefined).destroy();
    return Promise.reject(kit.tooLarge(status, statusText, headersOf(raw), limit, []));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const broken = (cause?: unknown) => {
      if (!settled)
        fail(aborter.fired ? aborter.firedWith : new TypeError('terminated', { cause }));
    };
    source.on('data', (chunk: Buffer) => {
      total += chunk.byteLength;
      chunks.push(chunk);
      if (total > limit) {
        fail(kit.tooLarge(status, statusText, headersOf(raw), limit, chunks));
        source.on('error', () => undefined).destroy();
      }
    });
    source.once('end', () => {
      settled = true;
      const bytes =
        chunks.length === 0
          ? NO_BYTES
          : chunks.length === 1
            ? (chunks[0] as Buffer)
            : Buffer.concat(chunks, total);
      const headers = declared === undefined ? headersOf(raw, bytes.byteLength) : headersOf(raw);
      resolve({ status, statusText, headers, bytes });
    });
    source.once('error', broken);
    // A stream closed with neither 'end' nor 'error' must not leave the exchange waiting.
    source.once('close', broken);
  });
}

/**
 * The pipeline's sender over `dispatcher.request`: the body read whole into one `Uint8Array`,
 * with no `Response` built and read back. Failures have the shapes `fetch` gives them, so the
 * pipeline classifies them alike: `TypeError('fetch failed')` with undici's error (and its `code`)
 * as `cause` before the headers, `TypeError('terminated')` after them, the abort's reason when
 * the exchange is aborted, and `kit.tooLarge(…)` for a body over `maxResponseBytes`. Redirects
 * are never followed: the pipeline follows them itself.
 *
 * undici does not tell when a request is on the wire, so `onWritten` is called once the response
 * headers arrive, as a sender over `fetch` does.
 */
export function createUndiciSend(dispatcher: Dispatcher, kit: SendKit): Send {
  return async (exchange: Exchange) => {
    const headers: string[] = [];
    exchange.headers.forEach((value, name) => {
      headers.push(name, value);
    });
    const body = exchange.body === undefined ? null : await toUndiciBody(exchange.body, headers);
    const { origin, path } = originAndPath(exchange.url);
    const method = exchange.method as Dispatcher.HttpMethod;
    const aborter = new Aborter();
    const stopListening = exchange.onAbort((reason) => aborter.fire(reason));
    try {
      if (aborter.fired) throw aborter.firedWith;
      let response: Dispatcher.ResponseData;
      try {
        response = await dispatcher.request({
          origin,
          path,
          method,
          headers,
          body: body as Dispatcher.DispatchOptions['body'],
          signal: aborter,
        });
      } catch (error) {
        throw aborter.fired ? aborter.firedWith : new TypeError('fetch failed', { cause: error });
      }
      exchange.headersReceived = true;
      exchange.onWritten?.();
      if (NULL_BODY_STATUSES.has(response.statusCode) || method === 'HEAD') {
        // Free the connection for the next request.
        response.body.dump().catch(() => undefined);
        const { statusCode: status, statusText, headers: raw } = response;
        return { status, statusText, headers: headersOf(raw), bytes: NO_BYTES };
      }
      return await readAnswer(response, exchange.maxResponseBytes, kit, aborter);
    } finally {
      stopListening();
    }
  };
}
