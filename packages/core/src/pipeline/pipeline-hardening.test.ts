import {
  createServer,
  Agent as HttpAgent,
  type ClientRequestArgs,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import { basicAuth, createTokenCache, oauth2ClientCredentials } from '@partner-apis/auth';
import { ApiError, ConfigurationError, InternalServerError } from '@partner-apis/errors';
import { createVirtualTime, startFaultServer, type FaultServer } from '@partner-apis/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createClientPipeline,
  createServiceClient as createClient,
  type PipelineOptions,
} from '../index.js';
import { isHeaderValue } from '../internal.js';

/** A service client without auth, as the tests below need one. */
function createServiceClient<Paths extends object>(options: { baseUrl: string }) {
  return createClient<Paths>(
    { ...options, credentials: {} },
    { auth: () => ({ secretHeaderNames: [], authorize: () => undefined }) },
  );
}

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
  vi.restoreAllMocks();
});

async function serve(...args: Parameters<typeof startFaultServer>): Promise<FaultServer> {
  const server = await startFaultServer(...args);
  servers.push(server);
  return server;
}

/** A plain HTTP server on 127.0.0.1 for what the fault server cannot send. */
async function rawServer(
  handle: (response: ServerResponse, arrivals: number) => void,
): Promise<{ url: string; arrivals: number[]; closed: () => boolean }> {
  const arrivals: number[] = [];
  let clientClosed = false;
  const server: Server = createServer((request, response) => {
    arrivals.push(performance.now());
    response.on('close', () => {
      if (!response.writableFinished) clientClosed = true;
    });
    request.resume();
    request.on('end', () => handle(response, arrivals.length));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, arrivals, closed: () => clientClosed };
}

function pipeline(baseUrl: string, options: Partial<PipelineOptions> = {}) {
  const time = createVirtualTime();
  const client = createClientPipeline({
    baseUrl,
    clock: time.now,
    sleep: time.sleep,
    random: () => 0.5,
    ...options,
  });
  const send = (path = '/items', init?: RequestInit) =>
    client.fetch(new Request(`${baseUrl}${path}`, init));
  return { client, send, time };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('the call succeeded');
}

const postJson = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** The shape openapi-typescript generates for one GET and one POST. */
interface paths {
  '/things': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { header?: { 'X-Z-Conversation-Id'?: string } };
      responses: { 200: { content: { 'application/json': { n: number } } } };
    };
    post: {
      parameters: Record<string, never>;
      requestBody: { content: { 'application/json': { name: string } } };
      responses: { 201: { content: { 'application/json': { id: string } } } };
    };
  };
}

const HTML = '<html><body>Please sign in to the guest network</body></html>';

describe('a 2xx body that is not the JSON the client expects', () => {
  it.each([
    ['with a Content-Length', false],
    ['chunked, without a Content-Length', true],
  ])(
    'a GET answered with an HTML page (%s) is an ApiError, not a SyntaxError',
    async (_, chunked) => {
      const server = await rawServer((response) => {
        response.writeHead(200, { 'content-type': 'text/html' });
        if (chunked) response.write(HTML);
        response.end(chunked ? undefined : HTML);
      });
      const { raw } = createServiceClient<paths>({ baseUrl: server.url });
      const error = await rejection(raw.GET('/things', {}));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        code: 'malformed_response',
        status: 200,
        mayHaveTakenEffect: false,
        rawBody: HTML,
      });
      expect((error as ApiError).message).toContain('is not JSON (text/html');
    },
  );

  it('a POST answered 201 with an HTML page says the write may have taken effect', async () => {
    const server = await serve([
      { status: 201, body: HTML, headers: { 'content-type': 'text/html' } },
    ]);
    const { raw } = createServiceClient<paths>({ baseUrl: server.url });
    const error = await rejection(raw.POST('/things', { body: { name: 'n' } }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'malformed_response', mayHaveTakenEffect: true });
    expect((error as ApiError).message).toContain('may have taken effect');
    expect(server.requests).toHaveLength(1);
  });

  it('a POST answered 200 with JSON that does not parse is never sent again, even with retryWrites', async () => {
    const server = await serve([
      { body: '{"id": "q-', headers: { 'content-type': 'application/json' } },
    ]);
    const { send } = pipeline(server.url, { retry: { retryWrites: true, attempts: 5 } });
    const error = await rejection(send('/things', postJson({ name: 'n' })));
    expect(error).toMatchObject({ code: 'malformed_response', mayHaveTakenEffect: true });
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['GET', undefined, false],
    ['POST', postJson({ name: 'n' }), true],
  ] as const)(
    'a %s answered with status 600 is an ApiError, not a RangeError, and not retried',
    async (_, init, mayHaveTakenEffect) => {
      const server = await serve([{ status: 600, body: { ok: true } }]);
      const { send } = pipeline(server.url);
      const error = await rejection(send('/things', init));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 600, code: 'malformed_response', mayHaveTakenEffect });
      expect(server.requests).toHaveLength(1);
    },
  );
});

// Real bytes and real seconds: generous limits, for a machine that is busy with other work.
describe('maxResponseBytes', { timeout: 20_000 }, () => {
  const big = 'x'.repeat(2 * 1024 * 1024);

  it.each([200, 500])(
    'a %i body over the limit is response_too_large, and not retried',
    async (status) => {
      const server = await serve([
        { status, body: big, headers: { 'content-type': 'text/plain' } },
      ]);
      const { send } = pipeline(server.url, { maxResponseBytes: 1024 * 1024 });
      const error = await rejection(send());
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status, code: 'response_too_large' });
      expect((error as ApiError).message).toContain('1048576');
      expect(server.requests).toHaveLength(1);
    },
  );

  it('a 500 whose body passes the limit is still an InternalServerError, that says it was cut', async () => {
    const server = await serve([
      { status: 500, body: big, headers: { 'content-type': 'text/plain' } },
    ]);
    const { send } = pipeline(server.url, { maxResponseBytes: 1024 * 1024 });
    const error = await rejection(send());
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as ApiError).message).toMatch(/cut/);
  });

  // Quick settings: the zeros compress to a few kB either way.
  const fast = { level: 1, params: { [constants.BROTLI_PARAM_QUALITY]: 1 } };
  it.each([
    ['gzip', (data: Buffer) => gzipSync(data, fast)],
    ['deflate', (data: Buffer) => deflateSync(data, fast)],
    ['br', (data: Buffer) => brotliCompressSync(data, fast)],
  ] as const)('counts the decoded bytes of a %s body (a compression bomb)', async (coding, zip) => {
    // 8 MiB of zeros compress to a few kB: only the decoded size tells.
    const bomb = zip(Buffer.alloc(8 * 1024 * 1024));
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    const server = await rawServer((response) => {
      response.writeHead(500, { 'content-type': 'application/json', 'content-encoding': coding });
      response.end(bomb);
    });
    const { send } = pipeline(server.url, { maxResponseBytes: 1024 * 1024 });
    const error = await rejection(send());
    expect(error).toMatchObject({ status: 500, code: 'response_too_large' });
    expect(server.arrivals).toHaveLength(1);
  });

  it('stops reading an endless body once past the limit, closing the exchange', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'y');
    let written = 0;
    const server = await rawServer((response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      // Bounded: 256 MiB at most, far more than the client may read.
      const pump = () => {
        while (written < 256 * 1024 * 1024 && !response.destroyed) {
          written += chunk.byteLength;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      pump();
    });
    const { send } = pipeline(server.url, { maxResponseBytes: 1024 * 1024 });
    const error = await rejection(send());
    expect(error).toMatchObject({ code: 'response_too_large' });
    await vi.waitFor(() => expect(server.closed()).toBe(true), { timeout: 10_000 });
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('lets a body of exactly the limit through', async () => {
    const server = await serve([
      { body: 'z'.repeat(1000), headers: { 'content-type': 'text/plain' } },
    ]);
    const { send } = pipeline(server.url, { maxResponseBytes: 1000 });
    expect(await (await send()).text()).toHaveLength(1000);
  });
});

describe('the token endpoint', () => {
  it.each([500, 501, 503])('retries a %i from the token endpoint, then calls', async (status) => {
    const server = await serve({
      '/token': [
        { status, body: { error: 'server_error' } },
        { body: { access_token: 'tok-1', token_type: 'Bearer', expires_in: 3600 } },
      ],
      '/data': [{ body: { items: [] } }],
    });
    const { send } = pipeline(server.url, {
      auth: oauth2ClientCredentials({
        tokenUrl: `${server.url}/token`,
        clientId: 'id',
        clientSecret: 'secret',
        scopes: ['Portal.Api'],
        subscriptionKeys: { primary: 'key' },
        tokenCache: createTokenCache(),
      }),
    });
    expect(await (await send('/data')).json()).toEqual({ items: [] });
    expect(server.requestsTo('/token')).toHaveLength(2);
    expect(server.requestsTo('/data')[0]?.headers.authorization).toBe('Bearer tok-1');
  });
});

describe('observers never change an outcome', () => {
  it('a POST goes through once although every hook and logger method throws', async () => {
    const server = await serve([{ status: 201, body: { id: 'q-1' } }]);
    const warning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const boom = () => {
      throw new Error('observer bug');
    };
    const { send } = pipeline(server.url, {
      events: { onRequest: boom, onResponse: boom, onRetry: boom },
      logger: { debug: boom, info: boom, warn: boom, error: boom },
    });
    const response = await send('/things', postJson({ name: 'n' }));
    expect(await response.json()).toEqual({ id: 'q-1' });
    expect(server.requests).toHaveLength(1);
    // Reported once, not per failure.
    expect(warning).toHaveBeenCalledTimes(1);
    expect(String(warning.mock.calls[0]?.[0])).toContain('observer bug');
  });

  it('a throwing onRetry hook does not stop the retry', async () => {
    const server = await serve([{ status: 503 }, { body: { ok: true } }]);
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const { send } = pipeline(server.url, {
      events: {
        onRetry: () => {
          throw new Error('hook bug');
        },
      },
    });
    expect(await (await send()).json()).toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);
  });

  it('a throwing onTokenRefresh hook does not fail the call that fetched the token', async () => {
    const server = await serve({
      '/token': [{ body: { access_token: 'tok-1', token_type: 'Bearer', expires_in: 3600 } }],
      '/data': [{ body: { items: [] } }],
    });
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const { send } = pipeline(server.url, {
      auth: oauth2ClientCredentials({
        tokenUrl: `${server.url}/token`,
        clientId: 'id',
        clientSecret: 'secret',
        scopes: ['Portal.Api'],
        subscriptionKeys: { primary: 'key' },
        tokenCache: createTokenCache(),
      }),
      events: {
        onTokenRefresh: () => {
          throw new Error('hook bug');
        },
      },
    });
    expect(await (await send('/data')).json()).toEqual({ items: [] });
  });
});

describe('header values', () => {
  it('a header value outside Latin-1 is refused when the client is made, not a TypeError later', () => {
    expect(isHeaderValue('flow-42')).toBe(true);
    expect(isHeaderValue('flow-€-1')).toBe(false);
    expect(() =>
      createClient(
        { baseUrl: 'https://api.example.com', credentials: {}, userAgent: 'portal/2 – €' },
        { auth: () => basicAuth({ clientId: 'id', clientSecret: 'secret' }) },
      ),
    ).toThrow(
      new ConfigurationError(
        'userAgent',
        'must be a non-empty string of Latin-1 characters without line breaks',
      ),
    );
  });
});

describe('the rate tier, as the server counts it', { timeout: 20_000 }, () => {
  /** The most arrivals in any rolling window of `ms`. */
  function busiestWindow(arrivals: readonly number[], ms: number): number {
    const sorted = [...arrivals].sort((a, b) => a - b);
    let most = 0;
    for (let i = 0; i < sorted.length; i += 1) {
      let j = i;
      while (j < sorted.length && (sorted[j] as number) - (sorted[i] as number) < ms) j += 1;
      most = Math.max(most, j - i);
    }
    return most;
  }

  /** Hands out its first connection 150 ms late, as a first TLS handshake far away would. */
  class SlowFirstConnectionAgent extends HttpAgent {
    #first = true;

    override createConnection(
      options: ClientRequestArgs,
      callback?: (error: Error | null, socket: Duplex) => void,
    ): Duplex | undefined {
      const open = () => connect(Number(options.port ?? 80), options.host ?? '127.0.0.1');
      if (!this.#first) return open();
      this.#first = false;
      // Returning nothing makes the agent wait for the callback.
      setTimeout(() => callback?.(null, open()), 150);
      return undefined;
    }
  }

  async function silverBurst(agent: HttpAgent | undefined): Promise<number[]> {
    const server = await rawServer((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
    const { fetch } = createClientPipeline({ baseUrl: server.url, rateLimit: 'silver', agent });
    await Promise.all(
      Array.from({ length: 25 }, () =>
        fetch(new Request(`${server.url}/approvals`)).then((r) => r.json()),
      ),
    );
    return server.arrivals;
  }

  it('25 concurrent calls at silver: never more than 10 arrive in any rolling second', async () => {
    const arrivals = await silverBurst(undefined);
    expect(arrivals).toHaveLength(25);
    expect(busiestWindow(arrivals, 1000)).toBeLessThanOrEqual(10);
  });

  it('the same when the node:http transport is slow to open its first connection', async () => {
    const agent = new SlowFirstConnectionAgent({ keepAlive: true });
    try {
      const arrivals = await silverBurst(agent);
      expect(arrivals).toHaveLength(25);
      expect(busiestWindow(arrivals, 1000)).toBeLessThanOrEqual(10);
    } finally {
      agent.destroy();
    }
  });
});
