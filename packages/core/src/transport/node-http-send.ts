import type * as NodeHttp from 'node:http';
import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { Readable } from 'node:stream';
import type * as NodeZlib from 'node:zlib';
import type { BrotliDecompress, Gunzip, Inflate } from 'node:zlib';
import { ConfigurationError } from '@partner-apis/errors';
import {
  NO_BYTES,
  ResponseTooLarge,
  headOf,
  type Answer,
  type Exchange,
  type RequestBody,
  type Send,
} from './exchange.js';
import { HeaderMap } from './header-map.js';

/** What `http.request` accepts as `agent`: Node's agents and proxy agents built on them. */
export type NodeAgent = HttpAgent | HttpsAgent;

/** What this sender uses of `node:http` and `node:https`, which agree on it. */
interface Transport {
  request: typeof NodeHttp.request;
  Agent: new (options: { keepAlive: boolean; timeout: number }) => NodeAgent;
}
type Zlib = typeof NodeZlib;

/**
 * Node's `http`, `https` and `zlib`, loaded by the first request rather than at import: they
 * are most of the time an import of a client would otherwise take, and a process that never
 * calls pays nothing for them.
 */
const loaded: { http?: Transport; https?: Transport; zlib?: Zlib } = {};

interface Modules {
  transport: Transport;
  zlib: Zlib;
}

function loadedFor(secure: boolean): Modules | undefined {
  const transport = secure ? loaded.https : loaded.http;
  return transport === undefined || loaded.zlib === undefined
    ? undefined
    : { transport, zlib: loaded.zlib };
}

async function load(secure: boolean): Promise<Modules> {
  const zlib = (loaded.zlib ??= await import('node:zlib'));
  const transport = secure
    ? (loaded.https ??= await import('node:https'))
    : (loaded.http ??= await import('node:http'));
  return { transport, zlib };
}

/** Idle connections close after 4 s, before most servers (5 s in Node) close them first. */
const KEEP_ALIVE = { keepAlive: true, timeout: 4000 };

type Decoder = Gunzip | Inflate | BrotliDecompress;

// Like fetch, tolerate a compressed body cut short instead of failing on the missing trailer.
function decoderFor(zlib: Zlib, coding: string): Decoder | undefined {
  const { constants } = zlib;
  const lenient = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(lenient);
    case 'deflate':
      return zlib.createInflate(lenient);
    case 'br':
      return zlib.createBrotliDecompress({
        flush: constants.BROTLI_OPERATION_FLUSH,
        finishFlush: constants.BROTLI_OPERATION_FLUSH,
      });
    default:
      return undefined;
  }
}

/** The decoders of a `Content-Encoding`, in the order they apply; none when a coding is unknown. */
function decodersFor(zlib: Zlib, contentEncoding: string | undefined): Decoder[] {
  if (contentEncoding === undefined) return [];
  const codings = contentEncoding
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse();
  const decoders = codings.map((coding) => decoderFor(zlib, coding));
  if (decoders.some((decoder) => decoder === undefined)) {
    for (const decoder of decoders) decoder?.destroy();
    return [];
  }
  return decoders as Decoder[];
}

/** The request body as bytes or text `http` can write, adding the content type fetch would. */
async function encodeBody(
  body: RequestBody,
  headers: Record<string, string>,
): Promise<string | Uint8Array> {
  if (typeof body === 'string') {
    headers['content-type'] ??= 'text/plain;charset=UTF-8';
    return body;
  }
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body))
    return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof URLSearchParams) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded;charset=UTF-8';
    return body.toString();
  }
  // Blob, FormData, streams: let the platform encode them and pick the content type.
  const encoded = new Response(body);
  const type = encoded.headers.get('content-type');
  if (type !== null) headers['content-type'] ??= type;
  return new Uint8Array(await encoded.arrayBuffer());
}

/** A body that broke off or could not be decoded: the shape `fetch` gives, so it is classified alike. */
function terminated(cause?: unknown): TypeError {
  return new TypeError('terminated', { cause });
}

/**
 * Reads `source` (the response, or the last decoder over it) whole, counting decoded bytes;
 * past `limit` it destroys the response, which closes the connection.
 */
function readAll(response: IncomingMessage, source: Readable, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    source.on('data', (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > limit) {
        response.destroy();
        source.destroy();
        reject(
          new ResponseTooLarge(
            response.statusCode ?? 0,
            HeaderMap.received(response.rawHeaders),
            limit,
            headOf([...chunks, chunk]),
            response.statusMessage,
          ),
        );
        return;
      }
      chunks.push(chunk);
    });
    source.once('end', () => {
      if (chunks.length === 0) resolve(NO_BYTES);
      else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total));
    });
    source.on('error', (error) => reject(terminated(error)));
    response.once('close', () => {
      if (!response.complete) reject(terminated());
    });
  });
}

interface Origin {
  secure: boolean;
  hostname: string;
  port: number;
}

/**
 * Where a URL goes, parsed once per origin: a client talks to one or two, and parsing the whole
 * URL of every request costs more than the rest of building it.
 */
function originOf(url: string, known: Map<string, Origin>): { origin: Origin; path: string } {
  const end = url.indexOf('/', url.indexOf('//') + 2);
  const key = end === -1 ? url : url.slice(0, end);
  let origin = known.get(key);
  if (origin === undefined) {
    const parsed = new URL(key);
    const secure = parsed.protocol === 'https:';
    origin = {
      secure,
      hostname: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: Number(parsed.port || (secure ? 443 : 80)),
    };
    if (known.size < 64) known.set(key, origin);
  }
  const rest = end === -1 ? '/' : url.slice(end);
  const hash = rest.indexOf('#');
  return { origin, path: hash === -1 ? rest : rest.slice(0, hash) };
}

/**
 * Checks the `agent` option: an `http.Agent` or `https.Agent`, or a proxy agent built on them.
 *
 * @returns the agent, or `undefined` when none was given.
 */
export function checkAgent(value: unknown): NodeAgent | undefined {
  if (value === undefined) return undefined;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { addRequest?: unknown }).addRequest !== 'function'
  ) {
    throw new ConfigurationError(
      'agent',
      'must be an http.Agent or https.Agent (e.g. a proxy agent)',
    );
  }
  return value as NodeAgent;
}

/** The headers node:http sends for an exchange, before those of its body. */
function outgoingHeaders(exchange: Exchange): Record<string, string> {
  const headers: Record<string, string> = {};
  exchange.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers.accept ??= '*/*';
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  headers['user-agent'] ??= 'node';
  return headers;
}

/** Reads a response whole, decoded, within the exchange's size limit, and settles with it. */
function readResponse(
  response: IncomingMessage,
  exchange: Exchange,
  zlib: Zlib,
  settle: (error: unknown, answer?: Answer) => void,
): void {
  exchange.headersReceived = true;
  const status = response.statusCode ?? 0;
  const statusText = response.statusMessage ?? '';
  const limit = exchange.maxResponseBytes;
  const declared = Number(response.headers['content-length']);
  const decoders = decodersFor(zlib, response.headers['content-encoding']);
  if (decoders.length === 0 && declared > limit) {
    response.destroy();
    const headers = HeaderMap.received(response.rawHeaders);
    settle(new ResponseTooLarge(status, headers, limit, NO_BYTES, statusText));
    return;
  }
  let source: Readable = response;
  for (const decoder of decoders) {
    source.on('error', (error) => decoder.destroy(error));
    source = source.pipe(decoder);
  }
  readAll(response, source, limit).then(
    (bytes) => {
      const headers = HeaderMap.received(response.rawHeaders, bytes.byteLength);
      settle(undefined, { status, statusText, headers, bytes });
    },
    (error: unknown) => {
      response.destroy();
      for (const decoder of decoders) decoder.destroy();
      settle(error);
    },
  );
}

/**
 * A sender over `node:http` and `node:https` with keep-alive agents: the default in Node, for
 * a fraction of the CPU the global `fetch` spends per request. It decodes gzip, deflate and
 * br bodies, counting decoded bytes against the size limit as they arrive, and aborts the
 * exchange when the signal fires.
 */
export function createNodeHttpSend(agent: NodeAgent | undefined): Send {
  let httpAgent: NodeAgent | undefined = agent;
  let httpsAgent: NodeAgent | undefined = agent;
  const origins = new Map<string, Origin>();

  return async (exchange: Exchange) => {
    const { url, method } = exchange;
    const { origin, path } = originOf(url, origins);
    const { secure, hostname, port } = origin;
    const headers = outgoingHeaders(exchange);
    // Awaited only with a body: a GET reaches the socket in the same tick as its call.
    const body = exchange.body === undefined ? undefined : await encodeBody(exchange.body, headers);
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    else if (method !== 'GET' && method !== 'HEAD') headers['content-length'] = '0';
    const { transport, zlib } = loadedFor(secure) ?? (await load(secure));
    const via = secure
      ? (httpsAgent ??= new transport.Agent(KEEP_ALIVE))
      : (httpAgent ??= new transport.Agent(KEEP_ALIVE));

    // Node's agent closes an idle connection before the server's `Keep-Alive: timeout` hint
    // ends, so a request rarely meets a connection the server has just closed.
    return new Promise<Answer>((resolve, reject) => {
      let aborted: { reason: unknown } | undefined;
      let stopListening = () => undefined as void;
      let settled = false;
      const settle = (error: unknown, answer?: Answer) => {
        if (settled) return;
        settled = true;
        stopListening();
        if (answer !== undefined) resolve(answer);
        else reject(aborted === undefined ? error : aborted.reason);
      };
      const request = transport.request({ hostname, port, path, method, headers, agent: via });
      stopListening = exchange.onAbort((reason) => {
        aborted = { reason };
        request.destroy();
        settle(reason);
      });
      // In fetch's shape, so that every failure (a refused connection, a TLS error, a status
      // line the parser refuses) becomes a ConnectionError as the same failure of fetch does.
      request.on('error', (error) => settle(new TypeError('fetch failed', { cause: error })));
      if (exchange.onWritten !== undefined) request.once('finish', exchange.onWritten);
      request.once('response', (response) => {
        if (!settled) readResponse(response, exchange, zlib, settle);
      });
      // With a rate slot, written once the connection is up and the slot still holds: a
      // connection being made, or a process that stalled, must not carry it past its slot.
      const write = (): void => {
        const due = exchange.beforeWrite?.();
        if (due === undefined) {
          request.end(body);
          return;
        }
        due.then(write, (error: unknown) => {
          request.destroy();
          settle(error);
        });
      };
      if (exchange.beforeWrite === undefined) write();
      else
        request.once('socket', (socket) => {
          if (socket.connecting) socket.once(secure ? 'secureConnect' : 'connect', write);
          else write();
        });
    });
  };
}
