import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import {
  ApiError,
  ConnectionError,
  TimeoutError,
  createApprovalsClient,
  type ApprovalsClientOptions,
  type ApprovalsResult,
} from '@partner-apis/approvals';
import {
  SEND_KEY,
  type DirectSendOffer,
  type Exchange,
  type SendKit,
} from '@partner-apis/core/internal';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUndiciFetch, type UndiciFetch } from './index.js';

const result: ApprovalsResult = {
  employeeNumber: '100234',
  userId: 4711,
  userFullname: 'Amara Okafor',
  requisitionApprovals: [],
  invoiceApprovals: [],
  expenseReportApprovals: [],
  contractApprovals: Array.from({ length: 40 }, (_, i) => ({
    approvalId: 990000 + i,
    approvalCreatedDate: '2026-11-05T14:05:00+01:00',
    contractDetails: {
      contractNumber: `CTR-2026-${String(i).padStart(4, '0')}`,
      contactStartDate: '2027-01-01T00:00:00+01:00',
      contactEndDate: '2029-12-31T23:59:59+01:00',
    },
  })),
};
const json = Buffer.from(JSON.stringify(result));
// Decodes to 1 MiB of JSON from a few kB on the wire.
const bomb = Buffer.from(JSON.stringify({ padding: ' '.repeat(1024 * 1024) }));

type Route = (req: IncomingMessage, res: ServerResponse) => void;

// Parks answers that never finish, so the server can still close.
const parked: ServerResponse[] = [];
const sockets = new Set<Socket>();

function compressed(coding: string, bytes: Buffer): Route {
  const zip = { gzip: gzipSync, br: brotliCompressSync, deflate: deflateSync }[coding];
  const body = zip?.(bytes) ?? bytes;
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
    res.end(body);
  };
}

/** Routes by the first path segment: each test's client has its own `baseUrl`. */
const routes: Record<string, Route> = {
  plain: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-trace': 'abc' });
    res.end(json);
  },
  chunked: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const third = Math.ceil(json.length / 3);
    res.write(json.subarray(0, third));
    setTimeout(() => res.write(json.subarray(third, 2 * third)), 5);
    setTimeout(() => res.end(json.subarray(2 * third)), 10);
  },
  gzip: compressed('gzip', json),
  br: compressed('br', json),
  deflate: compressed('deflate', json),
  'gzip-bomb': compressed('gzip', bomb),
  big: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(bomb);
  },
  'big-declared': (_req, res) => {
    res.writeHead(500, 'Broken', {
      'content-type': 'application/json',
      'content-length': bomb.length,
    });
    res.end(bomb);
  },
  'no-content': (_req, res) => {
    res.writeHead(204, { 'x-trace': 'abc' });
    res.end();
  },
  hang: (_req, res) => {
    parked.push(res);
  },
  'stall-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(json.subarray(0, 100));
    parked.push(res);
  },
  'cut-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': json.length });
    res.write(json.subarray(0, 100));
    setTimeout(() => res.socket?.destroy(), 5);
  },
  reset: (req) => {
    req.socket.destroy();
  },
};

let server: Server;
let base: string;
let transport: UndiciFetch;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const route = routes[(req.url ?? '').split('/')[1] ?? ''];
      if (route) route(req, res);
      else res.writeHead(404).end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  transport = createUndiciFetch();
});

afterEach(() => {
  for (const res of parked.splice(0)) res.destroy();
});

afterAll(async () => {
  await transport.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function client(
  route: string,
  options: Partial<ApprovalsClientOptions> = {},
): ReturnType<typeof createApprovalsClient> {
  return createApprovalsClient({
    baseUrl: `${base}/${route}/v1`,
    credentials: { clientId: 'client-7f3a', clientSecret: 's3cr3t-value-9c1d' },
    fetch: transport,
    retry: { attempts: 1 },
    ...options,
  });
}

/** What core finds under its `SEND_KEY`. */
function offerOf(fetch: UndiciFetch): DirectSendOffer[typeof SEND_KEY] {
  return (fetch as unknown as DirectSendOffer)[SEND_KEY];
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('the call should have failed'),
    (error: unknown) => error,
  );
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('a client given createUndiciFetch()', () => {
  it('sends through the sender the function offers, never through the function itself', async () => {
    const offer = vi.fn(offerOf(transport));
    const fetch = vi.fn((input: string | URL | Request, init?: RequestInit) =>
      transport(input, init),
    );
    Object.defineProperty(fetch, SEND_KEY, { value: offer });
    const approvals = client('plain', { fetch: fetch as unknown as typeof globalThis.fetch });
    expect(await approvals.approvals.list('100234')).toEqual(result);
    expect(await approvals.approvals.list('100234')).toEqual(result);
    expect(offer).toHaveBeenCalledTimes(1);
    expect(fetch).not.toHaveBeenCalled();

    // Without the offer the same function is used as a fetch: what made the difference above.
    const plain = vi.fn((input: string | URL | Request, init?: RequestInit) =>
      transport(input, init),
    );
    await client('plain', { fetch: plain as unknown as typeof globalThis.fetch }).approvals.list(
      '100234',
    );
    expect(plain).toHaveBeenCalledTimes(1);
  });

  it('reads a body sent in chunks without a length', async () => {
    expect(await client('chunked').approvals.list('100234')).toEqual(result);
  });

  it.each(['gzip', 'br', 'deflate'])('decodes a %s body', async (coding) => {
    const { data, headers } = await client(coding).approvals.list('100234').withResponse();
    expect(data).toEqual(result);
    expect(headers.get('content-encoding')).toBe(coding);
  });

  it('ends a body over maxResponseBytes with response_too_large, and sends on afterwards', async () => {
    const error = await rejection(
      client('big', { maxResponseBytes: 64 * 1024 }).approvals.list('100234'),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, code: 'response_too_large' });
    expect(await client('plain').approvals.list('100234')).toEqual(result);
  });

  it('refuses a declared length over maxResponseBytes, keeping the status', async () => {
    const error = await rejection(
      client('big-declared', { maxResponseBytes: 64 * 1024 }).approvals.list('100234'),
    );
    expect(error).toMatchObject({ status: 500, code: 'response_too_large' });
    expect((error as ApiError).message).toMatch(/cut/);
  });

  it('counts the decoded bytes of a compressed body (a compression bomb)', async () => {
    const error = await rejection(
      client('gzip-bomb', { maxResponseBytes: 64 * 1024 }).approvals.list('100234'),
    );
    expect(error).toMatchObject({ status: 200, code: 'response_too_large' });
  });

  it("rejects with the signal's reason when aborted before the headers arrive", async () => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const call = client('hang').approvals.list('100234', { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 20);
    expect(await rejection(call)).toBe(reason);
  });

  it("rejects with the signal's reason when aborted mid-body", async () => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const call = client('stall-body').approvals.list('100234', { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 50);
    expect(await rejection(call)).toBe(reason);
  });

  it('times out an attempt whose body stalls, closing its connection', async () => {
    const before = sockets.size;
    const call = client('stall-body', { timeout: { attemptMs: 100 } }).approvals.list('100234');
    expect(await rejection(call)).toBeInstanceOf(TimeoutError);
    // The server sees the closes when a busy machine gets to them: a generous bound.
    await vi.waitFor(() => expect(sockets.size).toBeLessThanOrEqual(before), { timeout: 10_000 });
  }, 20_000);

  it('turns a refused connection into a ConnectionError with the code as cause', async () => {
    const approvals = createApprovalsClient({
      baseUrl: `http://127.0.0.1:${await freePort()}/v1`,
      credentials: { clientId: 'client-7f3a', clientSecret: 's3cr3t-value-9c1d' },
      fetch: transport,
      retry: { attempts: 1 },
    });
    const error = await rejection(approvals.approvals.list('100234'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ systemCode: 'ECONNREFUSED', requestMayHaveBeenSent: false });
    const cause = (error as ConnectionError).cause as TypeError;
    expect(cause).toBeInstanceOf(TypeError);
    expect(cause.message).toBe('fetch failed');
    expect((cause.cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('turns a connection reset before the headers into a ConnectionError', async () => {
    const error = await rejection(client('reset').approvals.list('100234'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ systemCode: 'UND_ERR_SOCKET' });
  });

  it('turns a connection lost mid-body into a ConnectionError saying the body was cut', async () => {
    const error = await rejection(client('cut-body').approvals.list('100234'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toMatch(/cut off/);
    const cause = (error as ConnectionError).cause as TypeError;
    expect(cause.message).toBe('terminated');
  });
});

describe('the sender of createUndiciFetch()', () => {
  const kit: SendKit = {
    tooLarge: (status, _statusText, _headers, limit, read) =>
      Object.assign(new Error(`too large: ${status} over ${limit}`), { read }),
  };

  function exchange(route: string, init: Partial<Exchange> = {}): Exchange {
    return {
      url: `${base}/${route}/v1/approvals`,
      method: 'GET',
      headers: new Headers(),
      body: undefined,
      signal: new AbortController().signal,
      onAbort: () => () => undefined,
      maxResponseBytes: 1024 * 1024,
      headersReceived: false,
      onWritten: undefined,
      ...init,
    };
  }

  const send = () => offerOf(transport)(kit);

  it('answers status, headers and the whole body, and says when the headers arrived', async () => {
    const onWritten = vi.fn();
    const sent = exchange('plain', { onWritten });
    const answer = await send()(sent);
    expect(answer).toMatchObject({ status: 200, statusText: 'OK' });
    expect(answer.headers.get('x-trace')).toBe('abc');
    expect(Buffer.from(answer.bytes).equals(json)).toBe(true);
    expect(sent.headersReceived).toBe(true);
    expect(onWritten).toHaveBeenCalledTimes(1);
  });

  it('gives a decoded body the length it is handed over with, and no transfer encoding', async () => {
    const answer = await send()(exchange('gzip'));
    expect(answer.headers.get('content-length')).toBe(String(json.length));
    expect(answer.headers.has('transfer-encoding')).toBe(false);
    expect(answer.headers.get('content-encoding')).toBe('gzip');
  });

  it('answers a 204 with no bytes', async () => {
    const answer = await send()(exchange('no-content'));
    expect(answer.status).toBe(204);
    expect(answer.bytes.byteLength).toBe(0);
  });

  it('hands the kit the chunks read so far when a body passes the limit', async () => {
    const error = await send()(exchange('big', { maxResponseBytes: 1000 })).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe('too large: 200 over 1000');
    const read = (error as { read: Uint8Array[] }).read;
    expect(read.reduce((sum, chunk) => sum + chunk.byteLength, 0)).toBeGreaterThan(1000);
  });

  it('does not send an exchange aborted before it starts', async () => {
    const reason = new Error('already aborted');
    const onAbort = (listener: (reason: unknown) => void) => {
      listener(reason);
      return () => undefined;
    };
    await expect(send()(exchange('plain', { onAbort }))).rejects.toBe(reason);
  });
});
