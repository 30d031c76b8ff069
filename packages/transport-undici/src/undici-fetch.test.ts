import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUndiciFetch, type UndiciFetch } from './index.js';

interface Echo {
  method: string;
  url: string;
  headers: Record<string, string | undefined>;
  body: string;
}

async function echo(response: Response): Promise<Echo> {
  return (await response.json()) as Echo;
}

type Route = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

const page = JSON.stringify({
  items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `n${i}` })),
});
// Parks requests that never get an answer, so the server can still close.
const parked: ServerResponse[] = [];

const routes: Record<string, Route> = {
  '/json': (_req, res) => {
    res.writeHead(200, 'Fine', [
      ['content-type', 'application/json'],
      ['x-trace', 'abc'],
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ]);
    res.end(page);
  },
  '/echo': (req, res, body) => {
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: body.toString('utf8'),
      }),
    );
  },
  '/chunks': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    let sent = 0;
    const next = (): void => {
      if (sent === 5) return void res.end();
      res.write(`chunk${sent++};`);
      setTimeout(next, 5);
    };
    next();
  },
  '/stall-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('first part;');
    parked.push(res);
  },
  '/hang': (_req, res) => {
    parked.push(res);
  },
  '/redirect': (_req, res) => {
    res.writeHead(302, { location: '/json', 'content-type': 'text/plain' });
    res.end('moved');
  },
  '/no-content': (_req, res) => {
    res.writeHead(204);
    res.end();
  },
  '/gzip': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(gzipSync(page));
  },
  '/cut-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    res.write('{"partial":');
    setTimeout(() => res.socket?.destroy(), 5);
  },
  '/reset': (req) => {
    req.socket.destroy();
  },
  '/bom': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"ok":true}')]));
  },
  '/status-600': (_req, res) => {
    res.writeHead(600, { 'content-type': 'application/json' });
    res.end('{"odd":true}');
  },
  '/socket': (req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(String(req.socket.remotePort));
  },
};

let server: Server;
let base: string;
let undiciFetch: UndiciFetch;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
      if (route) route(req, res, Buffer.concat(chunks));
      else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  undiciFetch = createUndiciFetch({ connections: 8 });
});

afterAll(async () => {
  for (const res of parked) res.destroy();
  await undiciFetch.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

// Each shared behaviour runs against the global fetch too: the transport must match it.
const transports: [string, () => typeof globalThis.fetch][] = [
  ['createUndiciFetch', () => undiciFetch],
  ['global fetch', () => globalThis.fetch],
];

describe.each(transports)('%s', (_name, transport) => {
  it('returns status, status text, headers and a JSON body', async () => {
    const response = await transport()(`${base}/json`);
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.statusText).toBe('Fine');
    expect(response.headers.get('x-trace')).toBe('abc');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(response.url).toBe(`${base}/json`);
    expect(await response.json()).toEqual(JSON.parse(page));
  });

  it('sends the method, headers and body of a Request, the way openapi-fetch builds it', async () => {
    const request = new Request(`${base}/echo?q=1`, {
      method: 'post',
      headers: { 'Content-Type': 'application/json', 'X-Z-Request-Id': 'r-1' },
      body: JSON.stringify({ a: 'é' }),
    });
    const echoed = await echo(await transport()(request));
    expect(echoed).toMatchObject({
      method: 'POST',
      url: '/echo?q=1',
      body: '{"a":"é"}',
      headers: {
        'content-type': 'application/json',
        'x-z-request-id': 'r-1',
        'content-length': String(Buffer.byteLength('{"a":"é"}')),
      },
    });
  });

  it('hands over a status outside 200–599 as it is, with its body', async () => {
    const response = await transport()(`${base}/status-600`);
    expect(response.status).toBe(600);
    expect(response.ok).toBe(false);
    expect(await response.json()).toEqual({ odd: true });
  });

  it('lets init override a Request input', async () => {
    const request = new Request(`${base}/echo`, {
      method: 'POST',
      body: 'old',
      headers: { a: '1' },
    });
    const echoed = await echo(
      await transport()(request, { method: 'PUT', body: 'new', headers: { b: '2' } }),
    );
    expect(echoed).toMatchObject({ method: 'PUT', body: 'new', headers: { b: '2' } });
    expect(echoed.headers.a).toBeUndefined();
  });

  it.each([
    ['a string', 'plain text', 'text/plain;charset=UTF-8', 'plain text'],
    ['a Uint8Array', new TextEncoder().encode('bytes'), undefined, 'bytes'],
    [
      'URLSearchParams',
      new URLSearchParams({ grant_type: 'client_credentials', scope: 'a b' }),
      'application/x-www-form-urlencoded;charset=UTF-8',
      'grant_type=client_credentials&scope=a+b',
    ],
    ['a Blob', new Blob(['blob body'], { type: 'text/x-blob' }), 'text/x-blob', 'blob body'],
  ])('sends %s body with the content type fetch gives it', async (_kind, body, type, text) => {
    const echoed = await echo(await transport()(`${base}/echo`, { method: 'POST', body }));
    expect(echoed.body).toBe(text);
    expect(echoed.headers['content-type']).toBe(type);
  });

  it('streams a ReadableStream request body', async () => {
    const parts = ['one;', 'two;', 'three'];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const part = parts.shift();
        if (part === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(part));
      },
    });
    const init = { method: 'POST', body, duplex: 'half' } as RequestInit;
    const echoed = await echo(await transport()(`${base}/echo`, init));
    expect(echoed.body).toBe('one;two;three');
    expect(echoed.headers['transfer-encoding']).toBe('chunked');
  });

  it('streams the response body as it arrives', async () => {
    const response = await transport()(`${base}/chunks`);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const received: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { done, value } = await reader.read();
      if (done) break;
      received.push(decoder.decode(value));
    }
    expect(received.length).toBeGreaterThan(1);
    expect(received.join('')).toBe('chunk0;chunk1;chunk2;chunk3;chunk4;');
  });

  it('returns a redirect as it is when told not to follow', async () => {
    const response = await transport()(`${base}/redirect`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/json');
  });

  it('rejects a redirect with redirect: error', async () => {
    await expect(transport()(`${base}/redirect`, { redirect: 'error' })).rejects.toThrow(TypeError);
  });

  it('gives 204 a null body', async () => {
    const response = await transport()(`${base}/no-content`);
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it('decodes a gzip body', async () => {
    const response = await transport()(`${base}/gzip`, { headers: { 'accept-encoding': 'gzip' } });
    expect(await response.json()).toEqual(JSON.parse(page));
  });

  it('rejects with the reason of a signal that has already fired', async () => {
    const reason = new Error('caller gave up');
    await expect(transport()(`${base}/json`, { signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
  });

  it('rejects with the abort reason when aborted before the headers arrive', async () => {
    const controller = new AbortController();
    const pending = transport()(`${base}/hang`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
  });

  it('fails the body stream with the abort reason when aborted mid-body', async () => {
    const controller = new AbortController();
    const response = await transport()(`${base}/stall-body`, { signal: controller.signal });
    const reason = new Error('deadline');
    setTimeout(() => controller.abort(reason), 20);
    await expect(response.text()).rejects.toBe(reason);
  });

  it('fails a body being streamed with the abort reason when aborted mid-body', async () => {
    const controller = new AbortController();
    const response = await transport()(`${base}/stall-body`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    const reason = new Error('deadline');
    setTimeout(() => controller.abort(reason), 20);
    await expect(reader.read()).rejects.toBe(reason);
  });

  it('fails with TypeError("fetch failed") and cause ECONNREFUSED when nothing listens', async () => {
    const port = await freePort();
    const error = await transport()(`http://127.0.0.1:${port}/json`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
    expect(((error as TypeError).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('fails with TypeError("fetch failed") and a coded cause when reset before headers', async () => {
    const error = await transport()(`${base}/reset`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
    expect(((error as TypeError).cause as { code?: string }).code).toBe('UND_ERR_SOCKET');
  });

  it('fails the body with TypeError("terminated") when the connection drops mid-body', async () => {
    const response = await transport()(`${base}/cut-body`);
    const error = await response.text().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('terminated');
    expect((error as TypeError).cause).toBeDefined();
  });

  it('fails a body being streamed with TypeError("terminated") when the connection drops', async () => {
    const response = await transport()(`${base}/cut-body`);
    const reader = response.body!.getReader();
    let error: unknown;
    for (let i = 0; i < 10 && error === undefined; i++) {
      const chunk = await reader.read().catch((e: unknown) => ({ failed: e }));
      if ('failed' in chunk) error = chunk.failed;
      else if (chunk.done) break;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('terminated');
  });

  it('refuses a GET with a body', async () => {
    await expect(transport()(`${base}/echo`, { method: 'GET', body: 'x' })).rejects.toThrow(
      TypeError,
    );
  });
});

describe('createUndiciFetch responses', () => {
  it('are standard Response objects', async () => {
    const response = await undiciFetch(`${base}/json`);
    expect(response).toBeInstanceOf(Response);
    expect(Object.prototype.toString.call(response)).toBe('[object Response]');
    await response.arrayBuffer();
  });

  it('can be read once: bodyUsed turns true and a second read rejects', async () => {
    const response = await undiciFetch(`${base}/json`);
    expect(response.bodyUsed).toBe(false);
    await response.json();
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    expect(response.body?.locked).toBe(true);
  });

  it('stream through response.body, after which text() reads what is left', async () => {
    const response = await undiciFetch(`${base}/json`);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(response.bodyUsed).toBe(true);
    reader.releaseLock();
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it('clone into two independent bodies', async () => {
    const response = await undiciFetch(`${base}/json`);
    const copy = response.clone();
    expect(copy.status).toBe(200);
    expect(copy.url).toBe(response.url);
    const [mine, theirs] = await Promise.all([response.text(), copy.text()]);
    expect(mine).toBe(page);
    expect(theirs).toBe(page);
  });

  it('read as ArrayBuffer and Blob', async () => {
    const buffer = await (await undiciFetch(`${base}/json`)).arrayBuffer();
    expect(new TextDecoder().decode(buffer)).toBe(page);
    const blob = await (await undiciFetch(`${base}/json`)).blob();
    expect(blob.type).toBe('application/json');
    expect(await blob.text()).toBe(page);
  });

  it('drop a UTF-8 byte order mark in text(), as fetch does', async () => {
    const response = await undiciFetch(`${base}/bom`);
    expect(await response.json()).toEqual({ ok: true });
  });
});

describe('createUndiciFetch', () => {
  it('does not follow a redirect even when redirect is "follow"', async () => {
    const response = await undiciFetch(`${base}/redirect`, { redirect: 'follow' });
    expect(response.status).toBe(302);
    expect(await response.text()).toBe('moved');
  });

  it('keeps the connection alive between requests', async () => {
    const single = createUndiciFetch({ connections: 1 });
    try {
      const first = await (await single(`${base}/socket`)).text();
      const second = await (await single(`${base}/socket`)).text();
      expect(second).toBe(first);
    } finally {
      await single.close();
    }
  });

  it('releases the connection when the body is cancelled', async () => {
    const single = createUndiciFetch({ connections: 1 });
    try {
      const response = await single(`${base}/stall-body`);
      await response.body!.cancel();
      const next = await single(`${base}/json`);
      expect(next.status).toBe(200);
      await next.arrayBuffer();
    } finally {
      await single.close();
    }
  });

  it('rejects calls after close()', async () => {
    const closing = createUndiciFetch();
    await closing.close();
    const error = await closing(`${base}/json`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
    expect(((error as TypeError).cause as { code?: string }).code).toMatch(/^UND_ERR_/);
  });

  it.each([
    [{ connections: 0 }, /connections/],
    [{ pipelining: 1.5 }, /pipelining/],
    [{ keepAliveTimeout: -1 }, /keepAliveTimeout/],
  ])('refuses bad options %j with a message naming the option', (options, message) => {
    expect(() => createUndiciFetch(options)).toThrow(RangeError);
    expect(() => createUndiciFetch(options)).toThrow(message);
  });

  it('refuses a URL with credentials or another protocol', async () => {
    await expect(undiciFetch('http://user:pw@127.0.0.1/')).rejects.toThrow(TypeError);
    await expect(undiciFetch('ftp://127.0.0.1/')).rejects.toThrow(/protocol/);
  });
});
