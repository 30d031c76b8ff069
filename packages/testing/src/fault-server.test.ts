import { afterEach, describe, expect, it } from 'vitest';
import { refusedUrl, startFaultServer, type FaultServer } from './index.js';

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('startFaultServer', () => {
  it('plays the steps in order, repeats the last one and records every request', async () => {
    server = await startFaultServer([
      { status: 503, headers: { 'retry-after': '2' }, body: 'busy' },
      { body: { ok: true } },
    ]);
    const first = await fetch(`${server.url}/a?x=1`, { method: 'POST', body: 'hello' });
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('2');
    expect(await first.text()).toBe('busy');
    for (let i = 0; i < 2; i += 1) {
      const next = await fetch(`${server.url}/b`, { headers: { 'x-test': 'yes' } });
      expect(next.headers.get('content-type')).toBe('application/json');
      expect(await next.json()).toEqual({ ok: true });
    }
    expect(server.requests.map((r) => [r.method, r.url, r.path])).toEqual([
      ['POST', '/a?x=1', '/a'],
      ['GET', '/b', '/b'],
      ['GET', '/b', '/b'],
    ]);
    expect(server.requests[0]?.body).toBe('hello');
    expect(server.requests[1]?.headers['x-test']).toBe('yes');
  });

  it('routes by path and answers 404 with an error body elsewhere', async () => {
    server = await startFaultServer({
      '/token': [{ body: 'tok' }],
      '/data': () => ({ status: 204 }),
    });
    expect(await (await fetch(`${server.url}/token`)).text()).toBe('tok');
    expect((await fetch(`${server.url}/data?q=1`)).status).toBe(204);
    const missing = await fetch(`${server.url}/other`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'not_found' });
    expect(server.requestsTo('/data')).toHaveLength(1);
  });

  it('resets the connection before headers', async () => {
    server = await startFaultServer([{ reset: true }]);
    await expect(fetch(server.url)).rejects.toThrow('fetch failed');
  });

  it('truncates a body after announcing its full length', async () => {
    server = await startFaultServer([{ body: { items: [1, 2, 3, 4, 5, 6] }, truncate: true }]);
    const response = await fetch(server.url);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it('stalls a body until the client gives up, and marks the request aborted', async () => {
    server = await startFaultServer([{ body: 'x'.repeat(100), stall: true }]);
    const controller = new AbortController();
    const response = await fetch(server.url, { signal: controller.signal });
    controller.abort(new Error('gave up'));
    await expect(response.text()).rejects.toThrow();
    await expect.poll(() => server?.requests[0]?.aborted).toBe(true);
  });

  it('delays headers, and close() ends a delayed or stalled exchange', async () => {
    server = await startFaultServer([{ delayMs: 60_000 }]);
    const pending = fetch(server.url);
    await server.waitForRequests(1);
    await server.close();
    server = undefined;
    await expect(pending).rejects.toThrow('fetch failed');
  });

  it('sends a redirect with its location', async () => {
    server = await startFaultServer([{ redirect: 'https://elsewhere.test/x', status: 307 }]);
    const response = await fetch(server.url, { redirect: 'manual' });
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe('https://elsewhere.test/x');
  });

  it('holds a request as long as an async handler waits, and setScript starts over', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    server = await startFaultServer(async () => {
      await held;
      return { body: 'late' };
    });
    const pending = fetch(server.url);
    await server.waitForRequests(1);
    release();
    expect(await (await pending).text()).toBe('late');
    server.setScript([{ status: 418 }]);
    expect((await fetch(server.url)).status).toBe(418);
  });

  it('waitForRequests rejects when too few requests arrive in time', async () => {
    server = await startFaultServer();
    await expect(server.waitForRequests(1, 20)).rejects.toThrow('expected 1 requests, got 0');
  });
});

describe('refusedUrl', () => {
  it('gives a loopback URL whose connection is refused, until a server listens on its port', async () => {
    const url = await refusedUrl();
    const error: unknown = await fetch(url).catch((e: unknown) => e);
    expect((error as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    server = await startFaultServer([{ body: 'up' }], { port: Number(new URL(url).port) });
    expect(server.url).toBe(url);
    expect(await (await fetch(url)).text()).toBe('up');
  });
});
