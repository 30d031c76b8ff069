import {
  createVirtualTime,
  refusedUrl,
  startFaultServer,
  type FaultServer,
  type FaultStep,
} from '@partner-apis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  BadGatewayError,
  ConnectionError,
  InternalServerError,
  RateLimitError,
  ServiceUnavailableError,
  TimeoutError,
  ValidationError,
} from '@partner-apis/errors';
import { createClientPipeline, type PipelineOptions, type RetryEvent } from '../index.js';

let servers: FaultServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(...args: Parameters<typeof startFaultServer>): Promise<FaultServer> {
  const server = await startFaultServer(...args);
  servers.push(server);
  return server;
}

/** The tracing headers of the liability and approvals specs. */
const TRACING_HEADERS = { requestId: 'X-Z-Request-Id', conversationId: 'X-Z-Conversation-Id' };

/** A pipeline on virtual time, recording its retries; `random` 0.5 makes the jitter exact. */
function pipeline(baseUrl: string, options: Partial<PipelineOptions> = {}) {
  const time = createVirtualTime();
  const retries: RetryEvent[] = [];
  const client = createClientPipeline({
    baseUrl,
    clock: time.now,
    sleep: time.sleep,
    random: () => 0.5,
    events: { onRetry: (event) => retries.push(event) },
    tracingHeaders: TRACING_HEADERS,
    ...options,
  });
  const send = (path = '/items', init?: RequestInit) =>
    client.fetch(new Request(`${baseUrl}${path}`, init));
  return { client, send, time, retries };
}

const ok: FaultStep = { body: { items: [1, 2, 3] } };
const unavailable = (retryAfter?: string): FaultStep => ({
  status: 503,
  headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  body: { code: 'internal_server_error', message: 'Maintenance.', correlationId: 'c-503' },
});
const postJson = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('retries', () => {
  it.each([
    { form: 'seconds', header: '2', waitMs: 2000 },
    { form: 'an HTTP date', header: 'Sun, 22 Nov 2026 10:00:05 GMT', waitMs: 5000 },
    { form: 'a past date', header: 'Sat, 21 Nov 2026 10:00:00 GMT', waitMs: 0 },
    { form: 'a huge number of seconds (capped)', header: '86400', waitMs: 30_000 },
    { form: 'garbage (full-jitter backoff instead)', header: 'later please', waitMs: 125 },
  ])(
    '503 with Retry-After as $form waits $waitMs ms, then succeeds',
    async ({ header, waitMs }) => {
      const server = await serve([unavailable(header), ok]);
      const { send, time, retries } = pipeline(server.url);
      const response = await send();
      expect(await response.json()).toEqual({ items: [1, 2, 3] });
      expect(server.requests).toHaveLength(2);
      expect(time.sleeps).toEqual([waitMs]);
      expect(retries).toHaveLength(1);
      expect(retries[0]?.error).toBeInstanceOf(ServiceUnavailableError);
    },
  );

  it('backs off exponentially with full jitter, up to maxDelayMs', async () => {
    const server = await serve([unavailable()]);
    const { send, time } = pipeline(server.url, {
      retry: { attempts: 5, baseDelayMs: 100, maxDelayMs: 300 },
      random: () => 0.99,
    });
    await expect(send()).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(time.sleeps.map(Math.round)).toEqual([99, 198, 297, 297]);
    expect(server.requests).toHaveLength(5);
  });

  it('gives up after the configured attempts with the typed error of the last response', async () => {
    const server = await serve([unavailable('0')]);
    const { send } = pipeline(server.url);
    const error = await send('/items?secret=x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({
      status: 503,
      code: 'internal_server_error',
      correlationId: 'c-503',
      method: 'GET',
      url: `${server.url}/items?secret=[redacted]`,
    });
    expect(server.requests).toHaveLength(3);
    expect((error as ApiError).requestId).toBe(server.requests[2]?.headers['x-z-request-id']);
  });

  it.each([500, 400, 404, 401])('does not retry %i', async (status) => {
    const server = await serve([{ status, body: '' }]);
    const { send } = pipeline(server.url);
    await expect(send()).rejects.toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(1);
  });

  it('retries 502 and 504', async () => {
    const server = await serve([{ status: 502 }, { status: 504 }, ok]);
    const { send } = pipeline(server.url);
    expect((await send()).status).toBe(200);
    expect(server.requests).toHaveLength(3);
  });

  it('POST 503 after send not retried', async () => {
    const server = await serve([unavailable('0'), ok]);
    const { send } = pipeline(server.url);
    await expect(send('/quotes', postJson({ a: 1 }))).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('POST 503 is retried, with the same body, when the caller opts in with retryWrites', async () => {
    const server = await serve([unavailable('0'), ok]);
    const { send } = pipeline(server.url, { retry: { retryWrites: true } });
    expect((await send('/quotes', postJson({ a: 1 }))).status).toBe(200);
    expect(server.requests.map((r) => r.body)).toEqual(['{"a":1}', '{"a":1}']);
  });

  it('POST 429 is retried: the server refused it before doing anything', async () => {
    const server = await serve([{ status: 429, headers: { 'retry-after': '1' } }, ok]);
    const { send, time } = pipeline(server.url);
    expect((await send('/quotes', postJson({ a: 1 }))).status).toBe(200);
    expect(time.sleeps).toEqual([1000]);
  });

  it('429 after the last attempt is a RateLimitError with retryAfterMs', async () => {
    const server = await serve([{ status: 429, headers: { 'retry-after': '3' } }]);
    const { send } = pipeline(server.url, { retry: { attempts: 1 } });
    await expect(send()).rejects.toMatchObject({ name: 'RateLimitError', retryAfterMs: 3000 });
    await expect(send()).rejects.toBeInstanceOf(RateLimitError);
  });

  it('does not start a retry whose wait would pass the overall deadline', async () => {
    const server = await serve([unavailable('20')]);
    const { send, time } = pipeline(server.url, { timeout: { totalMs: 10_000 } });
    await expect(send()).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(server.requests).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });
});

describe('failures without a response', () => {
  it('connection refused retried, GET and POST alike, until the server is up', async () => {
    for (const init of [undefined, postJson({ a: 1 })]) {
      const url = await refusedUrl();
      let server: FaultServer | undefined;
      const { send, retries } = pipeline(url, {
        // The server comes up during the wait before the second attempt.
        sleep: async () => {
          server = await serve([ok], { port: Number(new URL(url).port) });
        },
      });
      const response = await send('/items', init);
      expect(response.status).toBe(200);
      expect(retries[0]?.error).toMatchObject({
        name: 'ConnectionError',
        systemCode: 'ECONNREFUSED',
        requestMayHaveBeenSent: false,
      });
      expect(server?.requests).toHaveLength(1);
    }
  });

  it('connection refused on every attempt gives a ConnectionError', async () => {
    const url = await refusedUrl();
    const { send, retries } = pipeline(url);
    const error = await send().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe(`GET ${url}/items: connection refused (ECONNREFUSED)`);
    expect(retries).toHaveLength(2);
  });

  it('reset before headers: GET retried, POST not (it may have reached the server)', async () => {
    const server = await serve([{ reset: true }, ok]);
    const { send } = pipeline(server.url);
    expect((await send()).status).toBe(200);
    server.setScript([{ reset: true }, ok]);
    const error = await send('/quotes', postJson({ a: 1 })).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ConnectionError', requestMayHaveBeenSent: true });
    expect(server.requests).toHaveLength(3);
  });

  it('truncated JSON body of a 200 is a ConnectionError, retried for a GET', async () => {
    const server = await serve([{ body: { items: [1, 2, 3, 4, 5, 6, 7, 8] }, truncate: true }, ok]);
    const { send, retries } = pipeline(server.url);
    expect(await (await send()).json()).toEqual({ items: [1, 2, 3] });
    expect(retries[0]?.error).toBeInstanceOf(ConnectionError);
    expect(retries[0]?.error.message).toContain('the response body was cut off');
  });

  it('a 200 whose JSON body does not parse is retried for a GET, never a raw SyntaxError', async () => {
    const malformed: FaultStep = {
      headers: { 'content-type': 'application/json' },
      body: '[{"id":1},{"id"',
    };
    const server = await serve([malformed, ok]);
    const { send, retries } = pipeline(server.url);
    expect(await (await send()).json()).toEqual({ items: [1, 2, 3] });
    expect(retries[0]?.error).toMatchObject({ name: 'ApiError', code: 'malformed_response' });

    const always = await serve([malformed, malformed, malformed]);
    const error = await pipeline(always.url)
      .send()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, code: 'malformed_response' });
    expect((error as ApiError).message).toBe(
      `GET ${always.url}/items answered 200 with a JSON body that does not parse (15 bytes; cut short in transit?)`,
    );
    expect(always.requests).toHaveLength(3);
  });

  it('a POST answered 200 with a body that does not parse is not sent again', async () => {
    const server = await serve([
      { headers: { 'content-type': 'application/json' }, body: '{"quoteId":' },
      ok,
    ]);
    const error = await pipeline(server.url)
      .send('/quotes', postJson({ productId: 'P' }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'malformed_response' });
    expect(server.requests).toHaveLength(1);
  });

  it('truncated JSON error body still gives the status class with a clear message', async () => {
    const server = await serve([
      { status: 500, headers: { 'content-type': 'application/json' }, body: '{"code":"internal' },
    ]);
    const { send } = pipeline(server.url);
    const error = await send().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as ApiError).message).toBe(
      `HTTP 500 Internal Server Error from GET ${server.url}/items with a body that is not an error body (application/json)`,
    );
    expect((error as ApiError).rawBody).toBe('{"code":"internal');
  });

  it('HTML 502 from a gateway: BadGatewayError after the retries, correlation id from the header', async () => {
    const server = await serve([
      {
        status: 502,
        headers: { 'content-type': 'text/html', 'x-correlation-id': 'gw-1' },
        body: '<html><h1>502 Bad Gateway</h1></html>',
      },
    ]);
    const { send } = pipeline(server.url);
    const error = await send().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadGatewayError);
    expect(error).toMatchObject({ code: 'unexpected_response', correlationId: 'gw-1' });
    expect(server.requests).toHaveLength(3);
  });

  it('slow headers past timeout: TimeoutError per attempt, retried, then success', async () => {
    const server = await serve([{ delayMs: 5000 }, ok]);
    const { send, retries } = pipeline(server.url, { timeout: { attemptMs: 100 } });
    expect((await send()).status).toBe(200);
    expect(retries[0]?.error).toMatchObject({ name: 'TimeoutError', scope: 'attempt' });
    await expect.poll(() => server.requests[0]?.aborted).toBe(true);
  });

  it('slow headers past timeout on every attempt gives a TimeoutError', async () => {
    const server = await serve([{ delayMs: 60_000 }]);
    const { send, retries } = pipeline(server.url, {
      timeout: { attemptMs: 200 },
      retry: { attempts: 2 },
    });
    const error = await send().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ scope: 'attempt', timeoutMs: 200 });
    expect(retries).toHaveLength(1);
    expect(retries[0]?.error).toBeInstanceOf(TimeoutError);
  });

  it('body stalls: the per-attempt timeout covers the body too', async () => {
    const server = await serve([{ body: 'x'.repeat(1000), stall: true }]);
    const { send } = pipeline(server.url, { timeout: { attemptMs: 100 }, retry: { attempts: 1 } });
    await expect(send()).rejects.toMatchObject({ name: 'TimeoutError', scope: 'attempt' });
  });

  it('the overall deadline ends the call, retries included', async () => {
    const server = await serve([{ delayMs: 60_000 }]);
    const { send } = pipeline(server.url, {
      timeout: { attemptMs: 10_000, totalMs: 100 },
    });
    const error = await send().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TimeoutError', scope: 'total', timeoutMs: 100 });
    expect((error as TimeoutError).requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("the caller's signal aborts the wait between retries", async () => {
    const server = await serve([unavailable('60'), ok]);
    const controller = new AbortController();
    const client = createClientPipeline({
      baseUrl: server.url,
      retry: { maxRetryAfterMs: 60_000 },
      events: { onRetry: () => controller.abort(new Error('user cancelled')) },
    });
    const pending = client.fetch(new Request(`${server.url}/items`, { signal: controller.signal }));
    await expect(pending).rejects.toThrow('user cancelled');
    expect(server.requests).toHaveLength(1);
  });

  it("the caller's signal aborts a request in flight", async () => {
    const server = await serve([{ delayMs: 5000 }]);
    const { client } = pipeline(server.url);
    const controller = new AbortController();
    const pending = client.fetch(new Request(`${server.url}/items`, { signal: controller.signal }));
    await server.waitForRequests(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => server.requests[0]?.aborted).toBe(true);
  });

  it('an already aborted signal sends nothing', async () => {
    const server = await serve([ok]);
    const { client } = pipeline(server.url);
    const request = new Request(`${server.url}/items`, { signal: AbortSignal.abort() });
    await expect(client.fetch(request)).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('tracing and errors', () => {
  it('sends a fresh X-Z-Request-Id per attempt and keeps the other headers', async () => {
    const server = await serve([unavailable('0'), ok]);
    const { send } = pipeline(server.url);
    await send('/items', { headers: { accept: 'application/json', 'X-Z-Request-Id': 'mine' } });
    const [first, second] = server.requests.map((r) => r.headers);
    expect(first?.['x-z-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.['x-z-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(first?.['x-z-request-id']).not.toBe(second?.['x-z-request-id']);
    expect(first?.accept).toBe('application/json');
    expect(first?.['x-z-conversation-id']).toBeUndefined();
  });

  it('per-client conversation id: one for every call; a request header wins', async () => {
    const server = await serve([ok]);
    const { client, send } = pipeline(server.url, { conversationId: 'per-client' });
    await send();
    await send();
    await send('/items', { headers: { 'X-Z-Conversation-Id': 'paged-iteration-1' } });
    expect(server.requests.map((r) => r.headers['x-z-conversation-id'])).toEqual([
      client.conversationId,
      client.conversationId,
      'paged-iteration-1',
    ]);
  });

  it('per-call conversation id: one per call, the same on its retries', async () => {
    const server = await serve([unavailable('0'), ok]);
    const { send } = pipeline(server.url, { conversationId: 'per-call' });
    await send();
    await send();
    const ids = server.requests.map((r) => r.headers['x-z-conversation-id']);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
    expect(ids[2]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a 400 names the value each cause points at in the JSON request body', async () => {
    const server = await serve([
      {
        status: 400,
        body: {
          code: 'data_validation',
          message: 'Invalid declaration.',
          correlationId: 'c-400',
          causes: [{ message: 'not allowed', field: '/declarations/0/answer' }],
        },
      },
    ]);
    const { send } = pipeline(server.url, { conversationId: 'per-client' });
    const error = await send(
      '/quotes',
      postJson({ declarations: [{ id: 'countryOfSales', answer: 'MARS' }] }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).causes[0]).toMatchObject({
      pointer: ['declarations', '0', 'answer'],
      value: 'MARS',
    });
    expect((error as ValidationError).conversationId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('returns 2xx bodies whole, and empty ones as they are', async () => {
    const server = await serve([{ status: 204 }, { status: 201, body: 'created' }]);
    const { send } = pipeline(server.url);
    const empty = await send();
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    expect(await (await send()).text()).toBe('created');
  });
});
