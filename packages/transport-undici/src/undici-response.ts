import * as nodeStream from 'node:stream';
import type { Readable } from 'node:stream';
import { toWebStream } from './response-body.js';

const BOM = [0xef, 0xbb, 0xbf];

// In Node since 16.8 (and true for web streams too), but missing from @types/node 20.
const { isDisturbed } = nodeStream as unknown as { isDisturbed(stream: unknown): boolean };

function unusable(): TypeError {
  return new TypeError('Body is unusable: Body has already been read');
}

/** Reads a Node stream to its end, failing the way a `fetch` body fails. */
function readAll(source: Readable, signal: AbortSignal | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    source.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
    });
    source.once('end', () =>
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length)),
    );
    source.once('error', (error: unknown) =>
      reject(signal?.aborted ? signal.reason : new TypeError('terminated', { cause: error })),
    );
  });
}

function utf8(bytes: Buffer): string {
  // fetch's text() drops a UTF-8 byte order mark.
  const start = bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2] ? 3 : 0;
  return bytes.toString('utf8', start);
}

interface Body {
  /** The undici body while nobody has touched it. */
  source: Readable | undefined;
  /** The web stream, once `body` has been asked for. */
  stream: ReadableStream<Uint8Array> | undefined;
  signal: AbortSignal | undefined;
  consumed: boolean;
}

// Symbol-keyed rather than in a WeakMap: thousands of responses a second would each cost the
// garbage collector an ephemeron.
const BODY = Symbol('body');
const URL_ = Symbol('url');

interface Stateful {
  [BODY]?: Body;
  [URL_]?: string;
}

function state(response: Response): Body {
  const body = (response as Stateful)[BODY];
  if (body === undefined) throw new TypeError('Illegal invocation');
  return body;
}

function webStream(body: Body): ReadableStream<Uint8Array> {
  if (body.stream === undefined) {
    if (body.source !== undefined) {
      body.stream = toWebStream(body.source, body.signal);
      body.source = undefined;
    } else {
      // Already read through text()/json()/…: a stream that is used up, as fetch gives.
      body.stream = new ReadableStream<Uint8Array>();
      body.stream.getReader();
    }
  }
  return body.stream;
}

async function bytes(response: Response): Promise<Buffer> {
  const body = state(response);
  if (body.stream !== undefined) {
    // The caller took the stream first; reading it again goes through the standard path.
    return Buffer.from(await new Response(body.stream).arrayBuffer());
  }
  if (body.consumed || body.source === undefined) throw unusable();
  body.consumed = true;
  const source = body.source;
  body.source = undefined;
  return readAll(source, body.signal);
}

async function text(this: Response): Promise<string> {
  return utf8(await bytes(this));
}

async function json(this: Response): Promise<unknown> {
  return JSON.parse(utf8(await bytes(this)));
}

async function arrayBuffer(this: Response): Promise<ArrayBuffer> {
  const read = await bytes(this);
  // A body that fills its own ArrayBuffer (what Buffer.concat gives above 4 kB) is handed over
  // as it is; one that shares a pooled buffer is copied out.
  if (read.byteOffset === 0 && read.byteLength === read.buffer.byteLength) {
    return read.buffer as ArrayBuffer;
  }
  return read.buffer.slice(read.byteOffset, read.byteOffset + read.byteLength) as ArrayBuffer;
}

async function blob(this: Response): Promise<Blob> {
  return new Blob([await bytes(this)], { type: this.headers.get('content-type') ?? '' });
}

async function formData(this: Response): Promise<FormData> {
  return new Response(await bytes(this), { headers: this.headers }).formData();
}

function bodyUsed(body: Body): boolean {
  return body.consumed || (body.stream !== undefined && isDisturbed(body.stream));
}

function clone(this: Response): Response {
  const body = state(this);
  if (bodyUsed(body)) throw unusable();
  const [mine, theirs] = webStream(body).tee();
  body.stream = mine;
  const copy = new Response(theirs, {
    status: this.status,
    statusText: this.statusText,
    headers: this.headers,
  });
  Object.defineProperty(copy, 'url', { value: this.url });
  return copy;
}

/**
 * A standard `Response` (it is `instanceof Response`) whose body stays undici's Node stream until
 * someone asks for `response.body`: `text()`, `json()`, `arrayBuffer()` and `blob()` read the
 * socket directly, skipping the web stream that costs a `fetch` response a good part of its CPU.
 */
export class UndiciResponse extends Response {
  constructor(source: Readable, init: ResponseInit, url: string, signal: AbortSignal | undefined) {
    super(null, init);
    (this as Stateful)[BODY] = { source, stream: undefined, signal, consumed: false };
    (this as Stateful)[URL_] = url;
  }
}

// The DOM typings declare these as data properties, so they are replaced on the prototype
// rather than in the class body.
const method = (value: unknown) => ({ value, writable: true, configurable: true });
Object.defineProperties(UndiciResponse.prototype, {
  text: method(text),
  json: method(json),
  arrayBuffer: method(arrayBuffer),
  blob: method(blob),
  formData: method(formData),
  clone: method(clone),
  body: {
    configurable: true,
    get(this: Response) {
      return webStream(state(this));
    },
  },
  bodyUsed: {
    configurable: true,
    get(this: Response) {
      return bodyUsed(state(this));
    },
  },
  url: {
    configurable: true,
    get(this: Response) {
      return (this as Stateful)[URL_] ?? '';
    },
  },
});
