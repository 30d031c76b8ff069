import { startStrictUpstream, type StrictUpstream } from '@partner-apis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSpecEdits } from './spec-edits.js';
import { verifyUpstream } from './verify.js';
import { copyWorkspace, type WorkspaceCopy } from './workspace-copy.fixture.js';

// The service packages are devDependencies of this package, so that turbo reruns this test when
// one of them changes.
/** The packages the edited specs reach, in build order. */
const PACKAGES = ['errors', 'auth', 'core', 'exposure', 'riskengineering', 'approvals'];

/** Reads every record of each service through the clients, as a user would. */
const CONSUMER = `
import { createApprovalsClient } from '@partner-apis/approvals';
import { createExposureClient } from '@partner-apis/exposure';
import { createRiskEngineeringClient } from '@partner-apis/riskengineering';

const upstream = JSON.parse(process.argv[2]);
const portal = (service) => ({
  baseUrl: upstream.urls[service],
  tokenUrl: upstream.urls.tokenUrl,
  credentials: upstream.credentials[service],
});
const count = async (records) => {
  let n = 0;
  for await (const _ of records) n += 1;
  return n;
};
const exposure = createExposureClient(portal('exposure'));
const risk = createRiskEngineeringClient(portal('riskEngineering'));
const approvals = createApprovalsClient({ baseUrl: upstream.urls.approvals, credentials: upstream.credentials.approvals });
const result = await approvals.approvals.list(upstream.fixtures.employeeNumber);
const first = await exposure.locations.page({ limit: 3 });
console.log(JSON.stringify({
  locations: await count(exposure.locations.list({ pageSize: 7 })),
  gradings: await count(risk.gradings.list({ pageSize: 7 })),
  riskLocations: await count(risk.locations.list()),
  firstPage: first.map((r) => r.locationId),
  total: first.envelope.totalCount,
  dueDate: result.requisitionApprovals[0].approvalDueDate,
}));
`;

let upstream: StrictUpstream;
let workspace: WorkspaceCopy;
beforeAll(async () => {
  upstream = await startStrictUpstream();
  workspace = await copyWorkspace(PACKAGES);
}, 120_000);
afterAll(async () => {
  await upstream.close();
  await workspace.remove();
});

describe('the full loop against a stand-in whose details differ from the guesses', () => {
  it('edits, regenerates and rebuilds the clients, which then read every record with no other change', async () => {
    const { findings } = await verifyUpstream({
      exposure: {
        baseUrl: upstream.urls.exposure,
        tokenUrl: upstream.urls.tokenUrl,
        credentials: upstream.credentials.exposure,
        rateLimit: 'gold',
      },
      riskEngineering: {
        baseUrl: upstream.urls.riskEngineering,
        tokenUrl: upstream.urls.tokenUrl,
        credentials: upstream.credentials.riskEngineering,
        rateLimit: 'gold',
      },
      approvals: {
        baseUrl: upstream.urls.approvals,
        credentials: upstream.credentials.approvals,
        tier: 'gold',
        employeeNumber: upstream.fixtures.employeeNumber,
      },
    });
    await writeSpecEdits(workspace.specs, findings);
    for (const pkg of PACKAGES) await workspace.regenerate(pkg);
    for (const pkg of PACKAGES) await workspace.build(pkg);

    const { urls, credentials, fixtures } = upstream;
    const output = await workspace.runConsumer(CONSUMER, [
      JSON.stringify({ urls, credentials, fixtures }),
    ]);
    expect(JSON.parse(output)).toEqual({
      locations: upstream.fixtures.records,
      gradings: upstream.fixtures.records,
      riskLocations: upstream.fixtures.records,
      firstPage: ['LOC-0000001', 'LOC-0000002', 'LOC-0000003'],
      total: upstream.fixtures.records,
      dueDate: '2026-02-08T17:00:00+01:00',
    });
  }, 600_000);
});
