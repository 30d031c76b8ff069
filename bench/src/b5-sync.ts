import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import type { Goal, Section } from './report.js';
import { fixed, times, type RunOptions, type Scenario } from './scenario.js';
import { median } from './stats.js';

const PAGE_SIZE = 1024;
const DELAY_MS = 20;
const DAY_MS = 86_400_000;

/** The sources B5 runs: the sync of core and the changing upstream of the testing package. */
const source = (path: string) => fileURLToPath(new URL(`../../packages/${path}`, import.meta.url));

/** What the bundle of B5's sources gives; see `ENTRY`. */
interface Sources {
  measure(input: { records: number; changed: number; reps: number }): Promise<Measured>;
  runSyncRounds(options: {
    syncer: { script: string };
    rounds: number;
    seed: number;
    workDir: string;
  }): Promise<{
    rounds: number;
    expected: number;
    missing: number;
    stale: number;
    readTwice: number;
    read: number;
    kills: number;
  }>;
}

interface Measured {
  listMs: number[];
  fullMs: number[];
  incrementalMs: number[];
  listed: number;
  fullRead: number;
  incrementalRead: number;
}

/**
 * The measuring side, bundled from the sources (core's sync is measured as the tests run it,
 * whatever the packages export): a changing upstream of `records` on 127.0.0.1, last modified
 * more than ten days ago; per rep, a plain `list()` (prefetch 4, the default), a full sync and,
 * after `changed` records are modified a day later, an incremental sync from its checkpoint.
 */
const ENTRY = `
import { createOffsetCollection } from ${JSON.stringify(source('core/src/paging/offset-collection.ts'))};
import { createServiceClient } from ${JSON.stringify(source('core/src/client/service-client.ts'))};
import { createSyncRun } from ${JSON.stringify(source('core/src/paging/sync.ts'))};
import { startChangingUpstream } from ${JSON.stringify(source('testing/src/changing-upstream.ts'))};
export { runSyncRounds } from ${JSON.stringify(source('testing/src/changing-upstream.ts'))};

const listLocations = {
  operationId: 'listLocations', resource: 'locations', verb: 'list', method: 'GET',
  path: '/open/portal-api/exposure/locations',
  arguments: [{ in: 'params', required: false }],
  security: [],
  parameters: [
    { name: 'modifiedSince', in: 'query', required: false, type: 'string', format: 'date', sync: 'watermark' },
    { name: 'limit', in: 'query', required: false, type: 'integer', minimum: 1, maximum: 1024, default: 128, paging: 'limit' },
    { name: 'offset', in: 'query', required: false, type: 'integer', minimum: 0, paging: 'offset' },
  ],
  response: { kind: 'json', mediaType: 'application/json', type: 'array' },
  paging: { pageSize: 128, records: null, itemType: 'object', recordKey: 'locationId', syncable: true },
};

const count = async (iterable) => { let n = 0; for await (const _ of iterable) n += 1; return n; };
const timed = async (work) => { const start = performance.now(); const n = await work(); return [performance.now() - start, n]; };

export async function measure({ records, changed, reps }) {
  let clock = Date.UTC(2026, 2, 1);
  const upstream = await startChangingUpstream({ seed: 5, records, now: () => new Date(clock) });
  clock += 10 * ${DAY_MS};
  // Each page answered after ${DELAY_MS} ms, as B2's are: a service's time per page, not the loopback's.
  upstream.onPage(() => new Promise((resolve) => setTimeout(resolve, ${DELAY_MS})));
  const client = createServiceClient(
    { baseUrl: upstream.url, credentials: {} },
    { auth: () => ({ secretHeaderNames: [], authorize: () => undefined }) },
  );
  const locations = createOffsetCollection(client, listLocations, 'locations');
  const result = { listMs: [], fullMs: [], incrementalMs: [], listed: 0, fullRead: 0, incrementalRead: 0 };
  try {
    // Unmeasured: the first read of each kind warms up the code paths and the connections.
    await count(locations.list({ pageSize: ${PAGE_SIZE} }));
    await count(createSyncRun(locations, listLocations, { pageSize: ${PAGE_SIZE} }, { now: () => new Date(clock) }));
    for (let rep = 0; rep < reps; rep += 1) {
      const [listMs, listed] = await timed(() => count(locations.list({ pageSize: ${PAGE_SIZE} })));
      const full = createSyncRun(locations, listLocations, { pageSize: ${PAGE_SIZE} }, { now: () => new Date(clock) });
      const [fullMs, fullRead] = await timed(() => count(full));
      clock += ${DAY_MS};
      upstream.change({ modify: changed, insert: 0 });
      const incremental = createSyncRun(
        locations, listLocations, { pageSize: ${PAGE_SIZE}, checkpoint: full.checkpoint }, { now: () => new Date(clock) },
      );
      const [incrementalMs, incrementalRead] = await timed(() => count(incremental));
      // The next rep's changes must again be the only recent ones.
      clock += 10 * ${DAY_MS};
      result.listMs.push(listMs);
      result.fullMs.push(fullMs);
      result.incrementalMs.push(incrementalMs);
      Object.assign(result, { listed, fullRead, incrementalRead });
    }
  } finally {
    await upstream.close();
  }
  return result;
}
`;

function zeroGoal(name: string, value: number | undefined): Goal {
  return {
    name,
    target: '= 0',
    measured: value === undefined ? '—' : String(value),
    met: value === undefined ? undefined : value === 0,
  };
}

async function run(options: RunOptions): Promise<Section> {
  const records = options.quick ? 20_000 : 100_000;
  const rounds = options.quick ? 10 : 100;
  const reps = options.quick ? 1 : 3;
  const changed = records / 100;
  const workDir = mkdtempSync(join(tmpdir(), 'bench-b5-'));
  try {
    const bundle = join(workDir, 'b5-sources.mjs');
    const syncer = join(workDir, 'sync-child.mjs');
    const common: BuildOptions = {
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: ['@opentelemetry/api'],
      logLevel: 'silent',
    };
    await build({
      ...common,
      stdin: { contents: ENTRY, resolveDir: source('core'), loader: 'js' },
      outfile: bundle,
    });
    await build({
      ...common,
      entryPoints: [source('core/src/paging/sync-child.fixture.ts')],
      outfile: syncer,
    });
    const sources = (await import(bundle)) as Sources;
    const measured = await sources.measure({ records, changed, reps });
    const started = performance.now();
    const proof = await sources.runSyncRounds({
      syncer: { script: syncer },
      rounds,
      seed: 2026,
      workDir,
    });
    const proofSeconds = (performance.now() - started) / 1000;
    const list = median(measured.listMs);
    const fullRatio = median(measured.fullMs) / list;
    const incrementalRatio = median(measured.incrementalMs) / list;
    return {
      id: 'B5',
      title: 'incremental sync',
      method:
        `A collection of ${records.toLocaleString('en')} records on 127.0.0.1 (the changing ` +
        `upstream of the testing package, pages of ${PAGE_SIZE} answered after ${DELAY_MS} ms), read ` +
        `in one process ${reps} ` +
        'times each way after one unmeasured read of each, medians: a plain `list()` at the default prefetch of 4; a full sync ' +
        `(no checkpoint; one page at a time); and, after ${changed.toLocaleString('en')} records ` +
        '(1 %) were modified a day later, an incremental sync from its checkpoint. Then the proof ' +
        `of the core tests, ${rounds} seeded rounds: per round two runs, each SIGKILLed on a random ` +
        'page and started again, against a collection modified and inserted into before every page.',
      tables: [
        {
          columns: ['read', 'records', 'median wall time (ms)', 'vs list()'],
          rows: [
            ['plain list()', String(measured.listed), fixed(list, 0), times(1)],
            [
              'full sync',
              String(measured.fullRead),
              fixed(median(measured.fullMs), 0),
              times(fullRatio),
            ],
            [
              'incremental sync, 1 % changed',
              String(measured.incrementalRead),
              fixed(median(measured.incrementalMs), 0),
              times(incrementalRatio),
            ],
          ],
        },
        {
          columns: [
            'rounds',
            'records expected',
            'missing',
            'stale',
            'read twice',
            'read',
            'processes killed',
            'seconds',
          ],
          rows: [
            [
              String(proof.rounds),
              String(proof.expected),
              String(proof.missing),
              String(proof.stale),
              String(proof.readTwice),
              String(proof.read),
              String(proof.kills),
              fixed(proofSeconds, 0),
            ],
          ],
        },
      ],
      goals: [
        {
          name: 'B5 incremental sync of 1 % changes, wall time vs a plain list() of every record',
          target: '≤ 0.20×',
          measured: times(incrementalRatio),
          met: incrementalRatio <= 0.2,
        },
        zeroGoal(`B5 records missing after two sync runs (${rounds} rounds)`, proof.missing),
        zeroGoal(`B5 records stale after two sync runs (${rounds} rounds)`, proof.stale),
      ],
      notes: [
        'A full sync asks one page at a time where `list()` keeps four in flight: a page asked ' +
          'before the one ahead of it is answered could see records shift past it, so a full sync ' +
          'costs what prefetch 1 costs. An incremental run reads what changed, plus one request ' +
          'that finds the end.',
        `Read twice: records a round's runs read again in a version the mirror already held (the ` +
          'day of margin of the watermark, and the pages re-read after a kill).',
      ],
    };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** B5: the cost of a sync against a plain listing, and the proof's rounds. */
export const b5Sync: Scenario = { id: 'B5', run };
