import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSyncRun } from '../../core/src/sync.js';
import { createRiskEngineeringClient, type Grading, type RiskEngineeringClient } from './index.js';
import { listGradings } from './generated/operations.js';

/** The read as codegen describes it from the spec's `x-sync` and `x-record-key`. */
const synced = {
  ...listGradings,
  parameters: listGradings.parameters.map((parameter) =>
    parameter.name === 'modifiedSince' ? { ...parameter, sync: 'watermark' as const } : parameter,
  ),
  response: { ...listGradings.response, recordKey: 'gradingId' },
};

let sb: Sandbox;
let risk: RiskEngineeringClient;
beforeAll(async () => {
  sb = await startSandbox({ sizes: { gradings: 2000 } });
  risk = createRiskEngineeringClient({
    baseUrl: sb.urls.riskEngineering,
    tokenUrl: sb.urls.tokenUrl,
    credentials: sb.credentials.riskEngineering,
  });
});
afterAll(() => sb.close());

test('mirrors the sandbox gradings: everything the first time, then what changed since', async () => {
  const mirror = new Map<unknown, Grading>();
  const first = createSyncRun(risk.gradings, synced, { pageSize: 1024 });
  for await (const grading of first) mirror.set(grading['gradingId'], grading);
  expect(mirror.size).toBe(2000);
  expect(first.checkpoint).toMatchObject({ since: null, complete: true });

  const saved = JSON.stringify(first.checkpoint);
  const next = createSyncRun(risk.gradings, synced, { pageSize: 1024, checkpoint: saved });
  const changed: Grading[] = [];
  for await (const grading of next) changed.push(grading);
  const since = first.checkpoint.next;
  expect(changed.every((grading) => String(grading['modifiedDate']) >= since)).toBe(true);
  expect(changed.length).toBe(
    [...mirror.values()].filter((l) => String(l['modifiedDate']) >= since).length,
  );
  expect(next.checkpoint).toMatchObject({ since, complete: true });
});
