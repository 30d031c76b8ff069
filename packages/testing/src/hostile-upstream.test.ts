import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { createGunzip } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SECRET_ENCODINGS,
  createRollingWindowCounter,
  credentialsOf,
  encodeSecret,
  hostile,
  startHostileUpstream,
  warningsDuring,
  type HostileUpstream,
} from './index.js';

let upstream: HostileUpstream | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

/** The raw bytes of a response, read from a plain socket: no HTTP parser judges them. */
function rawResponse(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1', () => {
      socket.end('GET /odd HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('startHostileUpstream', () => {
  it('answers HTML with a 2xx', async () => {
    upstream = await startHostileUpstream({ '/data': hostile.htmlOk(203) });
    const response = await fetch(`${upstream.url}/data`);
    expect(response.status).toBe(203);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toMatch(/^<!doctype html>/);
  });

  it.each([
    ['null', null],
    ['number', 42],
    ['array', [{ id: 'R-1' }]],
    ['nonRecordItems', [1, 'two', null, [3], true]],
  ] as const)('answers JSON of the wrong kind: %s', async (kind, value) => {
    upstream = await startHostileUpstream({ '/data': hostile.wrongJson(kind) });
    const response = await fetch(`${upstream.url}/data`);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual(value);
  });

  it.each([99, 199, 600, 999])('sends the status line %i, which node:http cannot', async (code) => {
    upstream = await startHostileUpstream({ '/odd': hostile.statusLine(code) });
    const raw = await rawResponse(upstream.url);
    expect(raw.startsWith(`HTTP/1.1 ${code} Odd\r\n`)).toBe(true);
    expect(raw).toMatch(/\r\n\r\n\{"code":"odd"/);
  });

  it.each([
    ['HTTP/1.1 abc Broken', []],
    ['GARBAGE', []],
    ['HTTP/1.1 200 OK', ['x-odd: a\x01b']],
  ] as const)('writes the head %s %j as it is', async (firstLine, headerLines) => {
    upstream = await startHostileUpstream({ '/odd': hostile.rawHead(firstLine, headerLines) });
    const raw = await rawResponse(upstream.url);
    expect(raw.startsWith([firstLine, ...headerLines, ''].join('\r\n'))).toBe(true);
    expect(raw).toMatch(/\r\n\r\n\{"code":"odd"/);
  });

  it('cuts a chunked body short: a chunk announced longer than sent, and no last chunk', async () => {
    upstream = await startHostileUpstream({
      '/odd': hostile.truncatedChunked({ status: 500, sentBytes: 4 }),
    });
    const raw = await rawResponse(upstream.url);
    expect(raw.startsWith('HTTP/1.1 500 Cut\r\n')).toBe(true);
    expect(raw).toContain('transfer-encoding: chunked');
    expect(raw.endsWith('\r\n\r\n8\r\n[   ')).toBe(true);
  });

  it('echoes every credential in every encoding, in the common error body', async () => {
    upstream = await startHostileUpstream({ '/data': hostile.echoSecrets() });
    const secret = 'p+s/é "x"';
    const response = await fetch(`${upstream.url}/data`, {
      headers: {
        authorization: `Basic ${Buffer.from(`app:${secret}`).toString('base64')}`,
        'ocp-apim-subscription-key': 'key-1',
      },
    });
    expect(response.status).toBe(401);
    const text = await response.text();
    const body = JSON.parse(text) as { message: string; causes: { code: string }[] };
    expect(body.message).toMatch(/^refused /);
    for (const encoding of SECRET_ENCODINGS.filter((e) => e !== 'plain')) {
      expect(text).toContain(encodeSecret(secret, encoding));
      expect(text).toContain(encodeSecret('key-1', encoding));
    }
    // The plain echo is in the parsed message; in the text it is escaped only as JSON needs.
    expect(body.message).toContain(secret);
    expect(new Set(body.causes.map((c) => c.code))).toEqual(new Set(SECRET_ENCODINGS));
  });

  it('echoes in an RFC 6749 body and in HTML too', async () => {
    upstream = await startHostileUpstream({
      '/token': hostile.echoSecrets({ shape: 'oauth', status: 400, encodings: ['percent'] }),
      '/page': hostile.echoSecrets({ shape: 'html', encodings: ['base64'] }),
    });
    const sent = { client_id: 'app', client_secret: 's3/+' };
    const oauth = (await (await fetch(`${upstream.url}/token`, { headers: sent })).json()) as {
      error: string;
      error_uri: string;
    };
    expect(oauth.error).toBe('invalid_client');
    expect(oauth.error_uri).toContain(encodeURIComponent('s3/+'));
    const page = await (await fetch(`${upstream.url}/page`, { headers: sent })).text();
    expect(page).toContain(Buffer.from('s3/+').toString('base64'));
    expect(page).not.toContain(Buffer.from('app').toString('base64'));
  });

  it('streams an oversize body of the announced length, and stops when the client leaves', async () => {
    upstream = await startHostileUpstream({
      '/small': hostile.oversize({ bytes: 3 * 1024 * 1024, announceLength: false }),
      '/huge': hostile.oversize(),
    });
    // Waiting for `drain` many times over must not pile up listeners on the response.
    const warnings = await warningsDuring(async () => {
      const small = await fetch(`${upstream!.url}/small`);
      const text = await small.text();
      expect(text).toHaveLength(3 * 1024 * 1024);
      expect(JSON.parse(text)).toEqual([]);
    });
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');

    const controller = new AbortController();
    const huge = await fetch(`${upstream.url}/huge`, { signal: controller.signal });
    expect(huge.headers.get('content-length')).toBe('200000000');
    const reader = huge.body!.getReader();
    await reader.read();
    controller.abort();
    await reader.read().catch(() => undefined);
    await expect.poll(() => upstream?.requests[1]?.aborted).toBe(true);
  });

  it('serves a gzip bomb: small on the wire, its full size inflated', async () => {
    const inflatedBytes = 16 * 1024 * 1024;
    upstream = await startHostileUpstream({ '/bomb': hostile.gzipBomb({ inflatedBytes }) });
    const { compressed, inflated } = await new Promise<{ compressed: number; inflated: number }>(
      (resolve, reject) => {
        httpRequest(`${upstream!.url}/bomb`, (response) => {
          expect(response.headers['content-encoding']).toBe('gzip');
          let wire = 0;
          let out = 0;
          const gunzip = createGunzip();
          response.on('data', (chunk: Buffer) => (wire += chunk.length));
          gunzip.on('data', (chunk: Buffer) => (out += chunk.length));
          gunzip.on('end', () => resolve({ compressed: wire, inflated: out }));
          gunzip.on('error', reject);
          response.pipe(gunzip);
        })
          .on('error', reject)
          .end();
      },
    );
    expect(inflated).toBe(inflatedBytes);
    expect(compressed).toBeLessThan(inflatedBytes / 500);
  });

  it('refuses a gzip bomb beyond its bound', () => {
    expect(() => hostile.gzipBomb({ inflatedBytes: 5 * 1024 ** 3 })).toThrow(RangeError);
  });

  it('caps pages below the asked limit', async () => {
    upstream = await startHostileUpstream({
      '/items': hostile.cappedPages({ total: 25, cap: 10 }),
    });
    const page = async (query: string) =>
      (await (await fetch(`${upstream!.url}/items?${query}`)).json()) as { index: number }[];
    expect(await page('limit=20&offset=0')).toHaveLength(10);
    expect((await page('limit=20&offset=20')).map((r) => r.index)).toEqual([20, 21, 22, 23, 24]);
    expect(await page('limit=5&offset=0')).toHaveLength(5);
  });

  it('repeats the last records of a page at the start of the next', async () => {
    upstream = await startHostileUpstream({
      '/items': hostile.repeatedRecords({ total: 12, repeat: 2 }),
    });
    const ids = async (offset: number) =>
      (
        (await (await fetch(`${upstream!.url}/items?limit=5&offset=${offset}`)).json()) as {
          id: string;
        }[]
      ).map((r) => r.id);
    expect(await ids(0)).toEqual(['R-000001', 'R-000002', 'R-000003', 'R-000004', 'R-000005']);
    expect(await ids(5)).toEqual(['R-000004', 'R-000005', 'R-000006', 'R-000007', 'R-000008']);
  });

  it('answers a slow token request after its delay, and gives up with the client', async () => {
    upstream = await startHostileUpstream({ '/token': hostile.slowToken({ delayMs: 50 }) });
    const response = await fetch(`${upstream.url}/token`, { method: 'POST' });
    expect(await response.json()).toEqual({
      access_token: 'token-1',
      token_type: 'Bearer',
      expires_in: 3600,
    });
    upstream.setRoutes({ '/token': hostile.slowToken({ delayMs: 60_000 }) });
    const controller = new AbortController();
    const pending = fetch(`${upstream.url}/token`, { signal: controller.signal });
    await expect.poll(() => upstream?.requests.length).toBe(2);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => upstream?.requests[1]?.aborted).toBe(true);
  });

  it('counts arrivals per client id', async () => {
    upstream = await startHostileUpstream({ '/data': hostile.json({ ok: true }) });
    const basic = `Basic ${Buffer.from('liability-app:s').toString('base64')}`;
    await Promise.all([
      fetch(`${upstream.url}/data`, { headers: { client_id: 'approvals-app' } }),
      fetch(`${upstream.url}/data`, { headers: { client_id: 'approvals-app' } }),
      fetch(`${upstream.url}/data`, { headers: { authorization: basic } }),
    ]);
    expect(upstream.rate.clients().sort()).toEqual(['approvals-app', 'liability-app']);
    expect(upstream.rate.arrivals('approvals-app')).toHaveLength(2);
    expect(upstream.requests.map((r) => r.clientId).sort()).toEqual([
      'approvals-app',
      'approvals-app',
      'liability-app',
    ]);
  });

  it('answers 404 with the common body on a path without a route', async () => {
    upstream = await startHostileUpstream({});
    const response = await fetch(`${upstream.url}/nothing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('createRollingWindowCounter', () => {
  it('finds the most arrivals in any rolling window, per client', () => {
    const counter = createRollingWindowCounter(1000);
    for (const t of [0, 100, 999, 1000, 1999, 5000]) counter.record('a', t);
    for (const t of [0, 1000, 2000]) counter.record('b', t);
    expect(counter.maxInAnyWindow('a')).toBe(3);
    expect(counter.maxInAnyWindow('b')).toBe(1);
    expect(counter.maxInAnyWindow('nobody')).toBe(0);
    counter.record('b', 1500);
    expect(counter.arrivals('b')).toEqual([0, 1000, 1500, 2000]);
    expect(counter.maxInAnyWindow('b')).toBe(2);
    counter.reset();
    expect(counter.clients()).toEqual([]);
  });

  it('refuses a window that is not positive', () => {
    expect(() => createRollingWindowCounter(0)).toThrow(RangeError);
  });
});

describe('encodeSecret and credentialsOf', () => {
  it.each([
    ['plain', 'a+b/ é', 'a+b/ é'],
    ['json', 'a+b/"', 'a+b\\/\\"'],
    ['unicode', 'a+', '\\u0061\\u002B'],
    ['percent', 'a+b/ é', 'a%2Bb%2F%20%C3%A9'],
    ['form', 'a+b/ é', 'a%2Bb%2F+%C3%A9'],
    ['base64', 'a+b', 'YSti'],
    ['base64url', '??>', 'Pz8-'],
  ] as const)('%s', (encoding, secret, expected) => {
    expect(encodeSecret(secret, encoding)).toBe(expected);
  });

  it('finds the credentials of a request, not the client id', () => {
    const basic = `Basic ${Buffer.from('app:s%2Bx').toString('base64')}`;
    expect(
      credentialsOf(
        { authorization: basic, client_id: 'app', 'ocp-apim-subscription-key': 'k' },
        'grant_type=client_credentials&client_secret=form-s',
      ),
    ).toEqual([basic, 'app:s%2Bx', 's%2Bx', 's+x', 'k', 'form-s']);
  });
});
