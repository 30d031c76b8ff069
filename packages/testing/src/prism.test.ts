import { startSandbox } from '@partner-apis/sandbox';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hostile,
  prismSpecsFromEnv,
  startHostileUpstream,
  withPrism,
  type HostileUpstream,
  type PrismJudged,
  type PrismableSandbox,
} from './index.js';

describe('prismSpecsFromEnv', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['0', []],
    ['1', ['auth', 'exposure', 'riskengineering', 'liability', 'approvals']],
    ['all', ['auth', 'exposure', 'riskengineering', 'liability', 'approvals']],
    ['auth, exposure', ['auth', 'exposure']],
  ])('reads %j', (value, specs) => {
    expect(prismSpecsFromEnv({ PARTNER_APIS_PRISM: value })).toEqual(specs);
  });

  it('refuses a spec it does not know', () => {
    expect(() => prismSpecsFromEnv({ PARTNER_APIS_PRISM: 'approvals,billing' })).toThrow(
      'PARTNER_APIS_PRISM names unknown specs: billing',
    );
  });
});

describe('withPrism in front of the sandbox', () => {
  let sb: Awaited<ReturnType<typeof startSandbox>> & PrismJudged;
  let headers: Record<string, string>;
  beforeAll(async () => {
    sb = await withPrism(await startSandbox(), ['approvals']);
    const { clientId, clientSecret } = sb.credentials.approvals;
    headers = { client_id: clientId, client_secret: clientSecret };
  });
  afterAll(() => sb.close());

  const get = (query: string, extra: Record<string, string> = {}) =>
    fetch(`${sb.urls.approvals}/approvals${query}`, {
      headers: { ...headers, 'x-z-request-id': randomUUID(), ...extra },
    });

  it('passes a valid call through Prism to the sandbox', async () => {
    expect(sb.urls.approvals).not.toContain('/approvals/v1');
    const response = await get('?employeeNumber=100234');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ employeeNumber: '100234' });
    expect(sb.stats().routes['approvals.getApprovals']?.requests).toBe(1);
    expect(sb.prismViolations).toEqual([]);
  });

  it('gives the sandbox answer to a request both judges refuse, with no violation', async () => {
    const response = await get('');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'data_validation' });
    expect(sb.prismViolations).toEqual([]);
  });

  it('sends requests straight to the sandbox while a fault is armed', async () => {
    sb.fault('approvals.getApprovals', { sequence: ['html502'] });
    try {
      const response = await get('?employeeNumber=100234');
      expect(response.status).toBe(502);
      expect(await response.text()).toContain('<html>');
    } finally {
      sb.clearFaults();
    }
    expect(sb.prismViolations).toEqual([]);
  });
});

describe('withPrism in front of an upstream that breaks the spec', () => {
  let upstream: HostileUpstream;
  let judged: PrismableSandbox & PrismJudged;
  beforeAll(async () => {
    upstream = await startHostileUpstream({
      '/approvals/v1/approvals': (request, response) =>
        (request.query.has('employeeNumber')
          ? hostile.wrongJson('number')
          : hostile.json({ employeeNumber: 'any' }))(request, response),
    });
    const base = `${upstream.url}/approvals/v1`;
    judged = await withPrism(
      {
        urls: {
          tokenUrl: `${upstream.url}/login/connect/token`,
          exposure: base,
          riskEngineering: base,
          liability: base,
          approvals: base,
        },
        close: () => upstream.close(),
        fault: () => undefined,
        clearFaults: () => undefined,
      },
      ['approvals'],
    );
  });

  it('counts a response that breaks the spec, and a request the upstream wrongly accepts', async () => {
    const headers = { client_id: 'c', client_secret: 's', 'x-z-request-id': randomUUID() };
    const wrongKind = await fetch(`${judged.urls.approvals}/approvals?employeeNumber=1`, {
      headers,
    });
    expect(wrongKind.status).toBe(500);
    const missing = await fetch(`${judged.urls.approvals}/approvals`, {
      headers: { ...headers, 'x-z-request-id': randomUUID() },
    });
    expect(missing.status).toBe(422);
    expect(judged.prismViolations).toEqual([
      expect.stringMatching(/^GET \/approvals: .*#VIOLATIONS/),
      expect.stringMatching(/^GET \/approvals: .*#UNPROCESSABLE_ENTITY/),
    ]);
    await expect(judged.close()).rejects.toThrow('Prism reported violations');
  });
});
