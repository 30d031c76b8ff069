import type { ServerResponse } from 'node:http';
import { startHostileUpstream, type HostileUpstream } from '@partner-apis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerifyResult } from './types.js';
import { verifyUpstream } from './verify.js';

/** Answers `body` with 200, whatever was sent. */
const fixed = (body: unknown) => (_: unknown, response: ServerResponse) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

const RECORDS = [
  { locationId: 'L-1', name: 'Harbour' },
  { locationId: 'L-2', name: 'Depot' },
  { locationId: 'L-3', name: 'Yard' },
];

/** The guesses only an environment that tells requests apart can show. */
const TOLD_APART = [
  ['auth', '/paths/~1login~1connect~1token/post/x-upstream-gap'],
  ['auth', '/components/schemas/TokenRequest/properties/scope/x-upstream-gap'],
  ['common', '/components/securitySchemes/SubscriptionKey/name'],
  ['common', '/components/parameters/Offset/x-upstream-gap'],
  ['common', '/components/parameters/Limit/schema/maximum'],
  ['approvals', '/paths/~1approvals/get/parameters/0/x-upstream-gap'],
  ['liability', '/paths/~1quotes~1{quoteId}/get/x-upstream-gap'],
] as const;

let upstream: HostileUpstream;
let result: VerifyResult;
beforeAll(async () => {
  // What the documents say the upstreams' mocking services do: the same fixed answer to
  // whatever is sent, and a token to anybody.
  upstream = await startHostileUpstream({
    '/login/connect/token': fixed({
      access_token: 'mock-token',
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'Portal.Api Portal.Api.Exposure',
    }),
    '/open/portal-api/exposure/locations': fixed(RECORDS),
    '/approvals': fixed({ employeeNumber: '100234', requisitionApprovals: [] }),
    '/quotes': fixed([]),
    '/quotes/QTE-VERIFY-UNKNOWN': fixed({ quoteId: 'Q-1' }),
    '/quotes/QTE-VERIFY-OTHER': fixed({ quoteId: 'Q-1' }),
  });
  result = await verifyUpstream({
    exposure: {
      baseUrl: upstream.url,
      tokenUrl: `${upstream.url}/login/connect/token`,
      credentials: {
        clientId: 'anyone',
        clientSecret: 'anything',
        subscriptionKeys: { primary: 'any-key' },
      },
      rateLimit: 'gold',
    },
    liability: {
      baseUrl: upstream.url,
      credentials: { clientId: 'anyone', clientSecret: 'anything' },
      rateLimit: 'gold',
    },
    approvals: {
      baseUrl: upstream.url,
      credentials: { clientId: 'anyone', clientSecret: 'anything' },
      tier: 'gold',
      employeeNumber: '100234',
    },
  });
});
afterAll(() => upstream.close());

describe('against a stand-in that answers the same whatever it is sent', () => {
  it.each(TOLD_APART)('confirms nothing it cannot tell apart: %s %s', (spec, pointer) => {
    const found = result.findings.filter((f) => f.spec === spec && f.pointer === pointer);
    expect(found).toEqual([expect.objectContaining({ status: 'unobserved' })]);
  });

  it('takes no grant to a request sent to be refused as the documented 200 of the token endpoint', () => {
    expect(result.findings.map((f) => f.pointer)).not.toContain(
      '/paths/~1login~1connect~1token/post/responses/200',
    );
  });

  it('says so in one line per service', () => {
    expect(result.notes).toHaveLength(3);
    expect(result.notes[0]).toMatch(
      /^exposure answered a wrong key, grant_type password, a wrong key on reads, any offset as it answered the real requests, as a mocking service does/,
    );
    expect(result.notes[1]).toMatch(/^liability answered any quote id as/);
    expect(result.notes[2]).toMatch(
      /^approvals answered a wrong client secret, no employeeNumber as/,
    );
  });

  it('gives one finding per pointer', () => {
    const keys = result.findings.map((f) => `${f.spec} ${f.pointer}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('a mocking service, with no employee to compare with', () => {
  it('judges nothing it cannot tell apart, and gives no edit', async () => {
    const { findings, notes } = await verifyUpstream({
      approvals: {
        baseUrl: upstream.url,
        credentials: { clientId: 'anyone', clientSecret: 'anything' },
        tier: 'gold',
      },
    });
    expect(findings).toContainEqual(
      expect.objectContaining({
        pointer: '/paths/~1approvals/get/parameters/0/x-upstream-gap',
        status: 'unobserved',
        evidence: expect.stringMatching(/\nnot judged: approvals answered a wrong client secret/),
      }),
    );
    expect(findings.filter((f) => f.edit !== undefined)).toEqual([]);
    expect(notes).toEqual([expect.stringMatching(/^approvals answered a wrong client secret as/)]);
  });
});

describe('mock: the environment is said to be a mocking service', () => {
  it('requests no token, and judges nothing that needs requests told apart', async () => {
    const before = upstream.requests.length;
    const { findings, notes } = await verifyUpstream({
      exposure: {
        baseUrl: upstream.url,
        tokenUrl: `${upstream.url}/login/connect/token`,
        credentials: {
          clientId: 'anyone',
          clientSecret: 'anything',
          subscriptionKeys: { primary: 'k' },
        },
        rateLimit: 'gold',
      },
      mock: true,
    });
    const sent = upstream.requests.slice(before).map((r) => r.path);
    expect(sent).not.toContain('/login/connect/token');
    expect(sent).toContain('/open/portal-api/exposure/locations');
    for (const pointer of [
      '/paths/~1login~1connect~1token/post/x-upstream-gap',
      '/components/schemas/TokenResponse/x-upstream-gap',
    ]) {
      expect(findings).toContainEqual(
        expect.objectContaining({
          pointer,
          status: 'unobserved',
          evidence: 'exposure: no token is requested of a mocking service',
        }),
      );
    }
    expect(findings.filter((f) => f.status === 'confirmed').map((f) => f.pointer)).toEqual([
      '/paths/~1open~1portal-api~1exposure~1locations/get/responses/200/x-upstream-gap',
      '/components/schemas/Location/x-upstream-gap',
    ]);
    expect(notes).toEqual([expect.stringMatching(/^exposure is a mocking service \(mock\)/)]);
  });
});
