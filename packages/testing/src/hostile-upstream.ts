import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';
import { createRollingWindowCounter, type RollingWindowCounter } from './rolling-window.js';
import {
  SECRET_ENCODINGS,
  credentialsOf,
  encodeSecret,
  type SecretEncoding,
} from './secret-encodings.js';

/** One request as the hostile upstream saw it. */
export interface HostileRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  /** Path without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Header names in lower case. */
  readonly headers: IncomingHttpHeaders;
  /** The request body as UTF-8 text. */
  readonly body: string;
  /** The client id it was counted under (see `clientIdOf`). */
  readonly clientId: string;
  /** True once the client closed the connection before the response was complete. */
  readonly aborted: boolean;
}

/** How a route misbehaves: writes the whole answer (or none) to `response`. */
export type Hostility = (request: HostileRequest, response: ServerResponse) => void | Promise<void>;

/** Options of `startHostileUpstream`. */
export interface HostileUpstreamOptions {
  /** The window of `rate`, in ms; 1000 by default. */
  rateWindowMs?: number;
  /** Which client a request counts for in `rate`; `clientIdOf` by default. */
  clientIdOf?: (headers: IncomingHttpHeaders) => string;
}

/** A running hostile upstream. */
export interface HostileUpstream {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  /** Every request received so far, in order of arrival. */
  readonly requests: readonly HostileRequest[];
  /** Arrivals per client id, for "never more than N in any second" assertions. */
  readonly rate: RollingWindowCounter;
  /** Replaces the routes; recorded requests and counts stay. */
  setRoutes(routes: HostileRoutes): void;
  /** Destroys every open connection (slow and streaming ones too) and stops listening. */
  close(): Promise<void>;
}

/** Hostilities per path (without the query); any other path gets a 404 with the common body. */
export type HostileRoutes = Readonly<Record<string, Hostility>>;

/**
 * The client a request counts for: its `client_id` header, else the user of its Basic
 * credentials, else its subscription key, else `anonymous`.
 */
export function clientIdOf(headers: IncomingHttpHeaders): string {
  if (typeof headers.client_id === 'string' && headers.client_id !== '') return headers.client_id;
  const basic = /^Basic\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
  if (basic !== undefined) {
    const pair = Buffer.from(basic, 'base64').toString('utf8');
    return pair.slice(0, Math.max(0, pair.indexOf(':')));
  }
  const key = headers['ocp-apim-subscription-key'];
  return typeof key === 'string' && key !== '' ? key : 'anonymous';
}

interface MutableRequest extends HostileRequest {
  aborted: boolean;
}

/**
 * Starts a server on 127.0.0.1 (a free port) whose routes misbehave as told: the upstream a
 * client was not written against. Build routes with `hostile.*`; every request is recorded and
 * counted per client in `rate`.
 */
export async function startHostileUpstream(
  routes: HostileRoutes,
  options: HostileUpstreamOptions = {},
): Promise<HostileUpstream> {
  let current = routes;
  const requests: MutableRequest[] = [];
  const rate = createRollingWindowCounter(options.rateWindowMs ?? 1000);
  const countAs = options.clientIdOf ?? clientIdOf;

  const server = createServer((request, response) => {
    const arrivedAt = performance.now();
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = request.url ?? '/';
      const parsed = new URL(url, 'http://127.0.0.1');
      const record: MutableRequest = {
        method: request.method ?? 'GET',
        url,
        path: parsed.pathname,
        query: parsed.searchParams,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        clientId: countAs(request.headers),
        aborted: false,
      };
      requests.push(record);
      rate.record(record.clientId, arrivedAt);
      response.on('close', () => {
        if (!response.writableFinished) record.aborted = true;
      });
      const route = current[record.path] ?? notFound;
      Promise.resolve(route(record, response)).catch((error: unknown) => {
        if (response.headersSent) {
          response.destroy();
          return;
        }
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(`hostile upstream route failed: ${String(error)}`);
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    rate,
    setRoutes(next) {
      current = next;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const notFound: Hostility = (request, response) =>
  sendJson(response, 404, {
    code: 'not_found',
    message: `The hostile upstream has no route for ${request.path}.`,
    correlationId: 'hostile-upstream',
  });

function sendText(
  response: ServerResponse,
  status: number,
  contentType: string,
  text: string,
): void {
  const body = Buffer.from(text, 'utf8');
  response.writeHead(status, { 'content-type': contentType, 'content-length': body.length });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  sendText(response, status, 'application/json', JSON.stringify(value));
}

/** Writes `chunk` until `bytes` are sent, waiting for `drain`, and stops when the client leaves. */
async function stream(response: ServerResponse, chunk: Buffer, bytes: number): Promise<void> {
  let left = bytes;
  while (left > 0 && !response.destroyed) {
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
    left -= piece.length;
    if (!response.write(piece)) {
      // Both listeners go once either fires, so a long stream does not pile up `close` ones.
      await new Promise<void>((resolve) => {
        const done = () => {
          response.off('drain', done);
          response.off('close', done);
          resolve();
        };
        response.on('drain', done);
        response.on('close', done);
      });
    }
  }
}

/** The kinds of JSON that are not what a client expects: `wrongJson` sends one. */
export type WrongJsonKind =
  'null' | 'number' | 'string' | 'boolean' | 'array' | 'object' | 'nonRecordItems';

const WRONG_JSON: Readonly<Record<WrongJsonKind, unknown>> = {
  null: null,
  number: 42,
  string: 'not an object',
  boolean: true,
  array: [{ id: 'R-1' }],
  object: { items: [{ id: 'R-1' }] },
  nonRecordItems: [1, 'two', null, [3], true],
};

/** A record of the paging routes: `{ id: 'R-000001', index: 0 }`. */
export interface PagedRecord {
  id: string;
  index: number;
}

function record(index: number): PagedRecord {
  return { id: `R-${String(index + 1).padStart(6, '0')}`, index };
}

function pageParameters(request: HostileRequest, defaultLimit: number) {
  const limit = Number(request.query.get('limit') ?? defaultLimit);
  const offset = Number(request.query.get('offset') ?? 0);
  return {
    limit: Number.isInteger(limit) && limit > 0 ? limit : defaultLimit,
    offset: Number.isInteger(offset) && offset >= 0 ? offset : 0,
  };
}

const gzipBombs = new Map<number, Promise<Buffer>>();

/** The largest inflated size a gzip bomb may have: 4 GiB, so generating one stays bounded. */
export const MAX_GZIP_BOMB_BYTES = 4 * 1024 ** 3;

/**
 * Gzip of `inflatedBytes` spaces inside `[` and `]` (valid JSON once inflated), made once per
 * size and process by streaming one 64 KiB chunk of spaces: a 1 GiB bomb is about 1 MiB.
 */
function gzipBomb(inflatedBytes: number): Promise<Buffer> {
  let bomb = gzipBombs.get(inflatedBytes);
  if (bomb === undefined) {
    bomb = new Promise<Buffer>((resolve, reject) => {
      const gzip = createGzip({ level: 9 });
      const parts: Buffer[] = [];
      gzip.on('data', (part: Buffer) => parts.push(part));
      gzip.on('end', () => resolve(Buffer.concat(parts)));
      gzip.on('error', reject);
      const spaces = Buffer.alloc(64 * 1024, 0x20);
      let left = inflatedBytes - 2;
      gzip.write('[');
      const pump = () => {
        while (left > 0) {
          const piece = left >= spaces.length ? spaces : spaces.subarray(0, left);
          left -= piece.length;
          if (!gzip.write(piece)) {
            gzip.once('drain', pump);
            return;
          }
        }
        gzip.end(']');
      };
      pump();
    });
    gzipBombs.set(inflatedBytes, bomb);
  }
  return bomb;
}

/**
 * The misbehaviours a hostile upstream can play, one route each. Every one is bounded: sizes
 * are streamed from one reused chunk, delays end when the client leaves or the server closes.
 */
export const hostile = {
  /**
   * An HTML page with a 2xx status, as a captive portal or a misrouted gateway answers.
   */
  htmlOk(status = 200): Hostility {
    return (_request, response) =>
      sendText(
        response,
        status,
        'text/html; charset=utf-8',
        '<!doctype html><html><head><title>Welcome</title></head><body><h1>Sign in</h1></body></html>',
      );
  },

  /**
   * JSON of the wrong kind with `content-type: application/json`: `null`, a number, a string, a
   * boolean, an array where an object is expected (`array`), an object where an array is
   * expected (`object`), or an array of items that are not records (`nonRecordItems`).
   */
  wrongJson(kind: WrongJsonKind, status = 200): Hostility {
    return (_request, response) => sendJson(response, status, WRONG_JSON[kind]);
  },

  /**
   * A raw status line with any code, also ones `node:http` refuses to send (99, 199, 600, 999),
   * and a small JSON body; the connection closes after it.
   */
  statusLine(code: number, reason = 'Odd'): Hostility {
    return hostile.rawHead(`HTTP/1.1 ${code} ${reason}`);
  },

  /**
   * Any first line (`HTTP/1.1 abc Broken`, `GARBAGE`) and any header lines, written to the
   * socket as they are, then a small JSON body; the connection closes after it. Nothing checks
   * them, so a header may carry bytes no HTTP parser accepts.
   */
  rawHead(firstLine: string, headerLines: readonly string[] = []): Hostility {
    return (_request, response) => {
      const body = JSON.stringify({ code: 'odd', message: firstLine, correlationId: 'x' });
      const head = [
        firstLine,
        ...headerLines,
        'content-type: application/json',
        `content-length: ${Buffer.byteLength(body)}`,
        'connection: close',
      ];
      response.socket?.end(Buffer.from(`${head.join('\r\n')}\r\n\r\n${body}`, 'latin1'));
    };
  },

  /**
   * A chunked body that breaks off: the head (`status`, 200 by default) and `sentBytes` of a
   * chunk that announced more, then the connection closes without the last chunk.
   */
  truncatedChunked(options: { status?: number; sentBytes?: number } = {}): Hostility {
    const { status = 200, sentBytes = 10 } = options;
    return (_request, response) => {
      const socket = response.socket;
      if (socket === null) return;
      const head = [
        `HTTP/1.1 ${status} Cut`,
        'content-type: application/json',
        'transfer-encoding: chunked',
      ];
      const partial = `[${' '.repeat(Math.max(0, sentBytes - 1))}`;
      socket.write(`${head.join('\r\n')}\r\n\r\n${(sentBytes * 2).toString(16)}\r\n${partial}`);
      // Written, then closed: the client must see the head before the connection ends.
      socket.end();
    };
  },

  /**
   * Echoes every credential of the request (see `credentialsOf`) in each of `encodings` (all by
   * default): in the common error body (`shape: 'common'`, the default: in `message` and one
   * cause per encoding), an RFC 6749 body (`'oauth'`: `error_description`, `error_uri`) or an
   * HTML page (`'html'`).
   */
  echoSecrets(
    options: {
      status?: number;
      shape?: 'common' | 'oauth' | 'html';
      encodings?: readonly SecretEncoding[];
    } = {},
  ): Hostility {
    const { status = 401, shape = 'common', encodings = SECRET_ENCODINGS } = options;
    return (request, response) => {
      const echoes = credentialsOf(request.headers, request.body).flatMap((secret) =>
        encodings.map((encoding) => ({ encoding, text: encodeSecret(secret, encoding) })),
      );
      if (shape === 'html') {
        const all = echoes.map((e) => e.text).join(' ');
        sendText(response, status, 'text/html', `<html><body><pre>${all}</pre></body></html>`);
        return;
      }
      // Spliced into JSON text as they are: `json` and `unicode` echoes are already escaped, so
      // the escapes reach the client raw; the others are escaped only where JSON needs it.
      const inner = (echo: { encoding: SecretEncoding; text: string }) =>
        echo.encoding === 'json' || echo.encoding === 'unicode'
          ? echo.text
          : JSON.stringify(echo.text).slice(1, -1);
      const all = echoes.map(inner).join(' ');
      const text =
        shape === 'oauth'
          ? `{"error":"invalid_client","error_description":"refused ${all}",` +
            `"error_uri":"https://errors.test/?c=${echoes.map(inner).join('&c=')}"}`
          : `{"code":"authentication_error","message":"refused ${all}","correlationId":"hostile",` +
            `"causes":[${echoes.map((e) => `{"code":"${e.encoding}","message":"${inner(e)}"}`).join(',')}]}`;
      sendText(response, status, 'application/json', text);
    };
  },

  /**
   * A body of `bytes` (200 MB by default), streamed from one reused chunk without allocating
   * it: `[`, spaces, `]`, valid JSON once complete. `announceLength: false` sends it chunked.
   */
  oversize(options: { bytes?: number; status?: number; announceLength?: boolean } = {}): Hostility {
    const { bytes = 200_000_000, status = 200, announceLength = true } = options;
    const spaces = Buffer.alloc(64 * 1024, 0x20);
    return async (_request, response) => {
      const headers: Record<string, string | number> = { 'content-type': 'application/json' };
      if (announceLength) headers['content-length'] = bytes;
      response.writeHead(status, headers);
      response.write('[');
      await stream(response, spaces, Math.max(0, bytes - 2));
      if (!response.destroyed) response.end(']');
    };
  },

  /**
   * A gzip bomb: `content-encoding: gzip` with a small body that inflates to `inflatedBytes`
   * (256 MiB by default, at most `MAX_GZIP_BOMB_BYTES`). Made when the route is created, once
   * per size, so the first request does not wait for it.
   */
  gzipBomb(options: { inflatedBytes?: number; status?: number } = {}): Hostility {
    const { inflatedBytes = 256 * 1024 ** 2, status = 200 } = options;
    if (!Number.isInteger(inflatedBytes) || inflatedBytes < 2) {
      throw new RangeError('inflatedBytes must be an integer of at least 2');
    }
    if (inflatedBytes > MAX_GZIP_BOMB_BYTES) {
      throw new RangeError(`inflatedBytes must be at most ${MAX_GZIP_BOMB_BYTES}`);
    }
    const bomb = gzipBomb(inflatedBytes);
    return async (_request, response) => {
      const body = await bomb;
      response.writeHead(status, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': body.length,
      });
      response.end(body);
    };
  },

  /**
   * Offset paging over `total` records (`PagedRecord`) that never gives more than `cap` per
   * page, whatever `limit` asks: a client that takes a short page for the end stops early.
   */
  cappedPages(options: { total: number; cap: number; defaultLimit?: number }): Hostility {
    const { total, cap, defaultLimit = 128 } = options;
    return (request, response) => {
      const { limit, offset } = pageParameters(request, defaultLimit);
      const count = Math.max(0, Math.min(limit, cap, total - offset));
      sendJson(
        response,
        200,
        Array.from({ length: count }, (_, i) => record(offset + i)),
      );
    };
  },

  /**
   * Offset paging over `total` records where each page after the first starts `repeat` records
   * early, so the last records of a page come again at the start of the next.
   */
  repeatedRecords(options: { total: number; repeat?: number; defaultLimit?: number }): Hostility {
    const { total, repeat = 1, defaultLimit = 128 } = options;
    return (request, response) => {
      const { limit, offset } = pageParameters(request, defaultLimit);
      const start = offset === 0 ? 0 : Math.max(0, offset - repeat);
      const count = Math.max(0, Math.min(limit, total - start));
      sendJson(
        response,
        200,
        Array.from({ length: count }, (_, i) => record(start + i)),
      );
    };
  },

  /**
   * A token endpoint that waits `delayMs` before it answers a valid RFC 6749 token response
   * (`access_token` is `token-<n>` for the n-th request unless given). The wait ends early when
   * the client leaves.
   */
  slowToken(options: { delayMs: number; accessToken?: string; expiresIn?: number }): Hostility {
    let issued = 0;
    return async (_request, response) => {
      issued += 1;
      const accessToken = options.accessToken ?? `token-${issued}`;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.delayMs);
        response.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (response.destroyed) return;
      sendJson(response, 200, {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: options.expiresIn ?? 3600,
      });
    };
  },

  /**
   * Answers as a well-behaved JSON endpoint: `value` with status 200 (or `status`). For routes
   * beside the hostile ones, e.g. a token endpoint in front of a hostile data route.
   */
  json(value: unknown, status = 200): Hostility {
    return (_request, response) => sendJson(response, status, value);
  },
};
