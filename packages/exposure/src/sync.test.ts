import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSyncRun } from '../../core/src/sync.js';
import { createExposureClient, type ExposureClient, type Location } from './index.js';
import { listLocations } from './generated/operations.js';

/** The read as codegen describes it from the spec's `x-sync` and `x-record-key`. */
const synced = {
  ...listLocations,
  parameters: listLocations.parameters.map((parameter) =>
    parameter.name === 'modifiedSince' ? { ...parameter, sync: 'watermark' as const } : parameter,
  ),
  response: { ...listLocations.response, recordKey: 'locationId' },
};

let sb: Sandbox;
let exposure: ExposureClient;
beforeAll(async () => {
  sb = await startSandbox({ sizes: { exposureLocations: 3000 } });
  exposure = createExposureClient({
    baseUrl: sb.urls.exposure,
    tokenUrl: sb.urls.tokenUrl,
    credentials: sb.credentials.exposure,
  });
});
afterAll(() => sb.close());

test('mirrors the sandbox locations: everything the first time, then what changed since', async () => {
  const mirror = new Map<unknown, Location>();
  const first = createSyncRun(exposure.locations, synced, { pageSize: 1024 });
  for await (const location of first) mirror.set(location['locationId'], location);
  expect(mirror.size).toBe(3000);
  expect(first.checkpoint).toMatchObject({ since: null, complete: true });

  const saved = JSON.stringify(first.checkpoint);
  const next = createSyncRun(exposure.locations, synced, { pageSize: 1024, checkpoint: saved });
  const changed: Location[] = [];
  for await (const location of next) changed.push(location);
  const since = first.checkpoint.next;
  expect(changed.every((location) => String(location['modifiedDate']) >= since)).toBe(true);
  expect(changed.length).toBe(
    [...mirror.values()].filter((l) => String(l['modifiedDate']) >= since).length,
  );
  expect(next.checkpoint).toMatchObject({ since, complete: true });
});
