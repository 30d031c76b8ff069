import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXPOSURE_SCOPES, getApprovals, requestToken } from './sandbox.fixture.js';
import { SandboxConfigError, startSandbox, type Sandbox } from './index.js';

const ROUTE = 'approvals.getApprovals';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.resetStats());
afterEach(() => {
  sb.clearFaults();
  expect(sb.stats().responseViolations).toEqual([]);
});

async function statuses(count: number): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await getApprovals(sb, '100234');
    await response.arrayBuffer();
    seen.push(response.status);
  }
  return seen;
}

describe('fault plans', () => {
  it('answers a sequence of statuses, then normally', async () => {
    sb.fault(ROUTE, { sequence: [503, 503] });
    const first = await getApprovals(sb, '100234');
    expect(first.status).toBe(503);
    expect(await first.json()).toMatchObject({
      code: 'internal_server_error',
      correlationId: expect.any(String),
    });
    expect(await statuses(3)).toEqual([503, 200, 200]);
    expect(sb.stats().routes[ROUTE]).toMatchObject({ requests: 4, faults: 2 });
  });

  it('applies periodic faults on every n-th request, the first listed winning', async () => {
    sb.fault(ROUTE, {
      every: [
        { n: 7, action: 503 },
        { n: 11, action: 'html502' },
        { n: 13, action: 'truncate' },
      ],
    });
    const seen: string[] = [];
    for (let i = 1; i <= 28; i++) {
      const response = await getApprovals(sb, '100234');
      const text = await response.text();
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      seen.push(`${response.status}${parses ? '' : ' unparsable'}`);
    }
    const faulty = seen.flatMap((s, i) => (s === '200' ? [] : [`${i + 1}: ${s}`]));
    expect(faulty).toEqual([
      '7: 503',
      '11: 502 unparsable',
      '13: 200 unparsable',
      '14: 503',
      '21: 503',
      '22: 502 unparsable',
      '26: 200 unparsable',
      '28: 503',
    ]);
  });

  it('sends an HTML 502 as a gateway would', async () => {
    sb.fault(ROUTE, { sequence: ['html502'] });
    const response = await getApprovals(sb, '100234');
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('<html>');
  });

  it('cuts the body of a truncated response, with a length that matches what is sent', async () => {
    const full = await (await getApprovals(sb, '100234')).text();
    sb.fault(ROUTE, { sequence: ['truncate'] });
    const response = await getApprovals(sb, '100234');
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(full.startsWith(text)).toBe(true);
    expect(text.length).toBeLessThan(full.length);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('resets the connection', async () => {
    sb.fault(ROUTE, { sequence: ['reset'] });
    await expect(getApprovals(sb, '100234')).rejects.toThrow();
    expect((await getApprovals(sb, '100234')).status).toBe(200);
  });

  it('sends a malformed 200 body without validating it', async () => {
    sb.fault(ROUTE, { sequence: ['malformed'] });
    const response = await getApprovals(sb, '100234');
    expect(response.status).toBe(200);
    expect(await response.json()).toBe('malformed');
  });

  it('sends a string body as is, in the content type its headers give', async () => {
    const page = '<!doctype html><title>Maintenance</title>';
    sb.fault(ROUTE, {
      sequence: [
        { status: 200, body: page, headers: { 'Content-Type': 'text/html' } },
        { status: 503, body: 'down' },
      ],
    });
    const html = await getApprovals(sb, '100234');
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html');
    expect(await html.text()).toBe(page);
    const text = await getApprovals(sb, '100234');
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await text.text()).toBe('down');
  });

  it('adds latency before the response', async () => {
    sb.fault(ROUTE, { latencyMs: 150 });
    const started = performance.now();
    expect((await getApprovals(sb, '100234')).status).toBe(200);
    // A lower bound only: the response cannot come before the added wait.
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('gives a 429 fault a Retry-After', async () => {
    sb.fault(ROUTE, { sequence: [429] });
    const response = await getApprovals(sb, '100234');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(sb.stats().routes[ROUTE]?.tooManyRequests).toBe(1);
  });

  it('answers the token endpoint with an RFC 6749 body', async () => {
    sb.fault('auth.requestToken', { sequence: [503] });
    const response = await requestToken(
      sb,
      'exposure',
      `grant_type=client_credentials&scope=${encodeURIComponent(EXPOSURE_SCOPES)}`,
    );
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: expect.any(String),
    });
  });

  it('selects a whole service with "service.*" and every route with "*"', async () => {
    sb.fault('approvals.*', { sequence: [500] });
    expect(await statuses(2)).toEqual([500, 200]);
    sb.fault('*', { sequence: [503] });
    expect(await statuses(1)).toEqual([503]);
    sb.clearFaults('*');
    expect(await statuses(1)).toEqual([200]);
  });

  it('takes plans from the options', async () => {
    const faulty = await startSandbox({ faults: { [ROUTE]: { sequence: [502] } } });
    try {
      expect((await getApprovals(faulty, '100234')).status).toBe(502);
      expect((await getApprovals(faulty, '100234')).status).toBe(200);
    } finally {
      await faulty.close();
    }
  });

  it.each([
    ['an unknown route', 'approvals.nothing', { sequence: [503] }, /no route matches/],
    ['a status out of range', ROUTE, { sequence: [99] }, /sequence\[0\]: a status/],
    ['an unknown fault name', ROUTE, { sequence: ['explode'] }, /"explode" is not a fault/],
    [
      'a zero period',
      ROUTE,
      { every: { n: 0, action: 503 } },
      /every\.n must be a positive integer/,
    ],
    ['an unknown option', ROUTE, { sometimes: true }, /sometimes is not a fault option/],
    ['a negative latency', ROUTE, { latencyMs: -1 }, /latencyMs must be/],
    ['an empty selector', '', { sequence: [503] }, /the selector must be/],
  ])('refuses %s with a message naming it', (_, selector, plan, message) => {
    expect(() => sb.fault(selector, plan as never)).toThrow(SandboxConfigError);
    expect(() => sb.fault(selector, plan as never)).toThrow(message);
  });
});

describe('admin endpoints', () => {
  async function admin(method: string, path: string, body?: unknown) {
    return fetch(`${sb.urls.admin}/${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
  }

  it('sets and clears faults', async () => {
    expect((await admin('PUT', `faults/${ROUTE}`, { sequence: [503] })).status).toBe(204);
    expect(await statuses(2)).toEqual([503, 200]);
    await admin('PUT', `faults/${ROUTE}`, { sequence: [503] });
    expect((await admin('DELETE', 'faults')).status).toBe(204);
    expect(await statuses(1)).toEqual([200]);
  });

  it('refuses a bad fault plan with 400 and the reason', async () => {
    const response = await admin('PUT', `faults/${ROUTE}`, { sequence: 'no' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 'data_validation',
      message: `fault("${ROUTE}").sequence must be a list`,
    });
  });

  it('reports and resets the stats', async () => {
    await statuses(2);
    const stats = (await (await admin('GET', 'stats')).json()) as ReturnType<Sandbox['stats']>;
    expect(stats.routes[ROUTE]).toMatchObject({ requests: 2, statuses: { 200: 2 } });
    expect(stats.totals.requests).toBe(2);
    expect((await admin('DELETE', 'stats')).status).toBe(204);
    expect(sb.stats().totals.requests).toBe(0);
  });

  it('lists the routes of every spec', async () => {
    const routes = (await (await admin('GET', 'routes')).json()) as { id: string }[];
    expect(routes.map((r) => r.id).sort()).toEqual([
      'approvals.getApprovals',
      'auth.requestToken',
      'exposure.listLocations',
      'exposure.submitStatementOfValues',
      'liability.createQuote',
      'liability.createSeller',
      'liability.getQuote',
      'liability.searchQuotes',
      'riskEngineering.listGradings',
      'riskEngineering.listRiskLocations',
    ]);
  });

  it('revokes and restores keys, sets the token lifetime and expires tokens', async () => {
    const form = `grant_type=client_credentials&scope=${encodeURIComponent(EXPOSURE_SCOPES)}`;
    expect(
      (await admin('POST', 'keys/revoke', { service: 'exposure', key: 'primary' })).status,
    ).toBe(204);
    expect((await requestToken(sb, 'exposure', form)).status).toBe(401);
    expect((await admin('POST', 'keys/restore')).status).toBe(204);
    expect((await admin('PUT', 'token-lifetime', { seconds: 60 })).status).toBe(204);
    const token = await requestToken(sb, 'exposure', form);
    expect(((await token.json()) as { expires_in: number }).expires_in).toBe(60);
    expect((await admin('POST', 'tokens/expire')).status).toBe(204);
    expect((await admin('PUT', 'token-lifetime', { seconds: 0 })).status).toBe(400);
    expect(
      (await admin('POST', 'keys/revoke', { service: 'approvals', key: 'primary' })).status,
    ).toBe(400);
    sb.setTokenLifetime(3600);
  });

  it('answers 404 for an unknown admin path', async () => {
    expect((await admin('GET', 'nothing')).status).toBe(404);
  });
});
