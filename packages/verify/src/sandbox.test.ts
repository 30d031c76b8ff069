import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatFindings } from './report.js';
import type { Finding } from './types.js';
import { verifyUpstream } from './verify.js';

let sb: Sandbox;
let findings: Finding[];
beforeAll(async () => {
  sb = await startSandbox();
  ({ findings } = await verifyUpstream({
    exposure: {
      baseUrl: sb.urls.exposure,
      tokenUrl: sb.urls.tokenUrl,
      credentials: sb.credentials.exposure,
      rateLimit: 'gold',
    },
    riskEngineering: {
      baseUrl: sb.urls.riskEngineering,
      tokenUrl: sb.urls.tokenUrl,
      credentials: sb.credentials.riskEngineering,
      rateLimit: 'gold',
    },
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

describe('against the sandbox', () => {
  it('confirms every guess it can observe', () => {
    console.log(formatFindings(findings));
    expect(findings.filter((f) => f.status === 'contradicted')).toEqual([]);
  });
});
