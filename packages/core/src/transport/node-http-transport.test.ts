import { Agent as HttpAgent, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { createTokenCache } from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClientPipeline, type RateSlot } from '../index.js';

// These describe the default transport in Node; the transport-undici conformance run, whose
// default is the global fetch, leaves them out by name.

interface Seen {
  method: string;
  headers: IncomingMessage['headers'];
  body: string;
  port: number;
}

const page = JSON.stringify({ items: Array.from({ length: 300 }, (_, i) => ({ id: i })) });
const encoders: Record<string, (data: Buffer) => Buffer> = {
  gzip: gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
};

let server: Server;
let base: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        port: request.socket.remotePort ?? 0,
      });
      const coding = new URL(request.url ?? '/', 'http://x').searchParams.get('coding');
      let body: Buffer = Buffer.from(page);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (coding !== null) {
        for (const name of coding.split(',').map((c) => c.trim())) {
          body = (encoders[name] as (data: Buffer) => Buffer)(body);
        }
        headers['content-encoding'] = coding;
      }
      response.writeHead(200, headers);
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the node:http transport', () => {
  it.each(['gzip', 'deflate', 'br', 'deflate, gzip'])('decodes a %s body', async (coding) => {
    const { fetch } = createClientPipeline({ baseUrl: base });
    const response = await fetch(new Request(`${base}/page?coding=${coding}`));
    expect(await response.json()).toEqual(JSON.parse(page));
    // What it serves is the decoded body, and its length says so.
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(page)));
  });

  it('asks for compressed bodies and says who it is, like fetch', async () => {
    const { fetch } = createClientPipeline({ baseUrl: base });
    await (await fetch(new Request(`${base}/page`))).text();
    expect(seen.at(-1)?.headers).toMatchObject({
      accept: '*/*',
      'accept-encoding': 'gzip, deflate, br',
      'user-agent': 'node',
    });
  });

  it.each([
    ['a string', 'plain text', 'text/plain;charset=UTF-8', 'plain text'],
    [
      'URLSearchParams',
      new URLSearchParams({ a: '1', b: 'é' }),
      'application/x-www-form-urlencoded;charset=UTF-8',
      'a=1&b=%C3%A9',
    ],
    ['bytes', new TextEncoder().encode('{"a":1}'), undefined, '{"a":1}'],
    ['a Blob', new Blob(['blob body'], { type: 'text/csv' }), 'text/csv', 'blob body'],
  ])(
    'sends %s as the body, with its length and the type fetch would give',
    async (_, body, type, text) => {
      const { fetch } = createClientPipeline({ baseUrl: base });
      await (await fetch(new Request(`${base}/page`, { method: 'POST', body }))).text();
      const last = seen.at(-1);
      expect(last?.body).toBe(text);
      expect(last?.headers['content-length']).toBe(String(Buffer.byteLength(text)));
      expect(last?.headers['transfer-encoding']).toBeUndefined();
      if (type !== undefined) expect(last?.headers['content-type']).toBe(type);
    },
  );

  it('sends a POST without a body with Content-Length 0', async () => {
    const { fetch } = createClientPipeline({ baseUrl: base });
    await (await fetch(new Request(`${base}/page`, { method: 'POST' }))).text();
    expect(seen.at(-1)?.headers['content-length']).toBe('0');
  });

  it('keeps the connection alive between calls', async () => {
    const { fetch } = createClientPipeline({ baseUrl: base });
    await (await fetch(new Request(`${base}/page`))).text();
    await (await fetch(new Request(`${base}/page`))).text();
    expect(seen.at(-1)?.port).toBe(seen.at(-2)?.port);
  });

  it('sends through the agent it is given (a proxy agent, say)', async () => {
    const agent = new HttpAgent({ keepAlive: false });
    const createConnection = vi.spyOn(agent, 'createConnection');
    const { fetch } = createClientPipeline({ baseUrl: base, agent });
    await (await fetch(new Request(`${base}/page`))).text();
    expect(createConnection).toHaveBeenCalledTimes(1);
    agent.destroy();
  });

  /** Fetches `/page` once, the call given `slot`, on a connection of its own. */
  async function fetchWithSlot(slot: RateSlot) {
    const agent = new HttpAgent({ keepAlive: false });
    const fleet = {
      rateLimiter: () => ({ take: () => slot }),
      tokenCache: createTokenCache(),
      close: async () => undefined,
    };
    const { fetch } = createClientPipeline({ baseUrl: base, rateLimit: 'gold', fleet, agent });
    try {
      return await (await fetch(new Request(`${base}/page`))).text();
    } finally {
      agent.destroy();
    }
  }

  it("writes a request once its connection is up and the limiter's slot agrees", async () => {
    const before = seen.length;
    const asked: number[] = [];
    // The first answer holds the request back, as a slot missed by a stalled process does.
    await fetchWithSlot({
      sent: () => undefined,
      beforeWrite: () => {
        asked.push(seen.length - before);
        return asked.length > 1 ? undefined : new Promise((resolve) => setTimeout(resolve, 100));
      },
    });
    // Asked again after the hold, and nothing had reached the server before.
    expect(asked).toEqual([0, 0]);
    expect(seen.length - before).toBe(1);
  });

  it('sends nothing when the limiter fails while holding a request back', async () => {
    const before = seen.length;
    const refused = new ConfigurationError('fleet', 'Redis refused the credentials');
    await expect(
      fetchWithSlot({ sent: () => undefined, beforeWrite: () => Promise.reject(refused) }),
    ).rejects.toBe(refused);
    expect(seen.length).toBe(before);
  });

  it('refuses an agent that is not one, naming the option', () => {
    expect(() => createClientPipeline({ baseUrl: base, agent: {} as HttpAgent })).toThrow(
      new ConfigurationError('agent', 'must be an http.Agent or https.Agent (e.g. a proxy agent)'),
    );
  });
});

describe('the node:http transport at start-up', () => {
  it('loading the client does not load Node’s fetch (Response, Request, Headers)', async () => {
    const touched: string[] = [];
    const restore: (() => void)[] = [];
    for (const name of ['Response', 'Request', 'Headers', 'fetch'] as const) {
      const original = Object.getOwnPropertyDescriptor(globalThis, name);
      if (original === undefined) continue;
      Object.defineProperty(globalThis, name, {
        configurable: true,
        get() {
          touched.push(name);
          return original.get === undefined ? original.value : original.get.call(globalThis);
        },
      });
      restore.push(() => Object.defineProperty(globalThis, name, original));
    }
    try {
      vi.resetModules();
      await import('../index.js');
    } finally {
      for (const undo of restore) undo();
    }
    expect(touched).toEqual([]);
  });
});
