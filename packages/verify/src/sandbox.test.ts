import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SPECS_DIR } from './spec-documents.fixture.js';
import type { Finding } from './types.js';
import { exitCodeOf } from './exit-code.js';
import { verifyUpstream } from './verify.js';

let sb: Sandbox;
let findings: Finding[];
beforeAll(async () => {
  sb = await startSandbox();
  const portal = (service: 'exposure' | 'riskEngineering') => ({
    baseUrl: sb.urls[service],
    tokenUrl: sb.urls.tokenUrl,
    credentials: sb.credentials[service],
    rateLimit: 'gold' as const,
  });
  ({ findings } = await verifyUpstream({
    exposure: portal('exposure'),
    riskEngineering: portal('riskEngineering'),
    liability: {
      baseUrl: sb.urls.liability,
      credentials: sb.credentials.liability,
      allowWrites: true,
      rateLimit: 'gold',
    },
    approvals: {
      baseUrl: sb.urls.approvals,
      credentials: sb.credentials.approvals,
      tier: sb.credentials.approvals.tier,
      employeeNumber: sb.fixtures.employeeWithApprovals,
    },
  }));
});
afterAll(() => sb.close());

/** Every guess the sandbox's answers can show. */
const OBSERVABLE = [
  ['auth', '/paths/~1login~1connect~1token/post/x-upstream-gap'],
  ['auth', '/components/schemas/TokenRequest/properties/scope/x-upstream-gap'],
  ['auth', '/components/schemas/TokenResponse/x-upstream-gap'],
  ['auth', '/components/schemas/TokenResponse/properties/expires_in/x-upstream-gap'],
  ['auth', '/components/schemas/TokenResponse/properties/scope/x-upstream-gap'],
  ['common', '/components/securitySchemes/SubscriptionKey/name'],
  ['common', '/components/parameters/Offset/x-upstream-gap'],
  ['common', '/components/parameters/Limit/schema/maximum'],
  ['exposure', '/paths/~1open~1portal-api~1exposure~1locations/get/responses/200/x-upstream-gap'],
  ['exposure', '/components/schemas/Location/x-upstream-gap'],
  [
    'riskengineering',
    '/paths/~1open~1portal-api~1riskengineering~1Gradings/get/responses/200/x-upstream-gap',
  ],
  ['riskengineering', '/components/schemas/Grading/x-upstream-gap'],
  [
    'riskengineering',
    '/paths/~1open~1portal-api~1riskengineering~1Locations/get/responses/200/x-upstream-gap',
  ],
  ['riskengineering', '/components/schemas/RiskLocation/x-upstream-gap'],
  ['liability', '/components/schemas/SellerCreated/x-upstream-gap'],
  ['liability', '/paths/~1quotes/post/responses/2XX/x-upstream-gap'],
  ['liability', '/paths/~1quotes~1{quoteId}/get/responses/2XX/x-upstream-gap'],
  ['liability', '/components/schemas/Quote/x-upstream-gap'],
  ['liability', '/components/schemas/QuoteSearchResult/x-upstream-gap'],
  ['liability', '/paths/~1quotes~1{quoteId}/get/x-upstream-gap'],
  ['approvals', '/paths/~1approvals/get/parameters/0/x-upstream-gap'],
  ['approvals', '/components/schemas/ApprovalsResult/x-upstream-gap'],
  ['approvals', '/components/schemas/ApprovalItem/x-upstream-gap'],
] as const;

function at(document: unknown, pointer: string): unknown {
  let current = document;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    current =
      typeof current === 'object' && current !== null
        ? (current as Record<string, unknown>)[key]
        : undefined;
  }
  return current;
}

describe('against the sandbox', () => {
  it.each(OBSERVABLE)('confirms %s %s', (spec, pointer) => {
    const found = findings.filter((f) => f.spec === spec && f.pointer === pointer);
    expect(found.map((f) => f.status)).toEqual(['confirmed']);
  });

  it('confirms every answer against its spec, and leaves nothing unobserved', () => {
    expect(findings.filter((f) => f.status !== 'confirmed')).toEqual([]);
    // The deliberately bad requests were judged too: the token endpoint's, a read's, approvals'.
    expect(findings.map((f) => f.pointer)).toEqual(
      expect.arrayContaining([
        '/paths/~1login~1connect~1token/post/responses/400',
        '/paths/~1open~1portal-api~1exposure~1locations/get/responses/4XX',
        '/paths/~1approvals/get/responses/400',
      ]),
    );
  });

  it('points each finding into the spec as written', () => {
    for (const finding of findings) {
      const spec = parse(
        readFileSync(join(SPECS_DIR, finding.spec, 'openapi.yaml'), 'utf8'),
      ) as unknown;
      expect(at(spec, finding.pointer), `${finding.spec} ${finding.pointer}`).toBeDefined();
    }
  });
});

describe('a read-only run of the sandbox', () => {
  it('exits 0: every check observed, or skipped for a stated reason', async () => {
    const { findings } = await verifyUpstream({
      liability: { baseUrl: sb.urls.liability, credentials: sb.credentials.liability },
      approvals: {
        baseUrl: sb.urls.approvals,
        credentials: sb.credentials.approvals,
        tier: sb.credentials.approvals.tier,
        employeeNumber: sb.fixtures.employeeWithApprovals,
      },
    });
    expect(findings.filter((f) => f.status === 'unobserved')).toEqual([]);
    expect(exitCodeOf(findings)).toBe(0);
    expect(findings).toContainEqual(
      expect.objectContaining({
        pointer: '/components/schemas/Quote/x-upstream-gap',
        status: expect.stringMatching(/^(confirmed|skipped)$/),
      }),
    );
  });

  it('states for every check what would confirm its guess and what would contradict it', () => {
    for (const { expects } of findings) {
      expect(expects.confirm).not.toBe('');
      expect(expects.contradict).not.toBe('');
    }
  });
});
