import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  runSyncRounds,
  startChangingUpstream,
  type ChangingRecord,
  type ChangingUpstream,
} from './changing-upstream.js';

const PATH = '/open/portal-api/exposure/locations';
let upstream: ChangingUpstream | undefined;
let workDir: string | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
  if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  workDir = undefined;
});

async function get(query: string): Promise<ChangingRecord[]> {
  const response = await fetch(`${upstream?.url}${PATH}?${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as ChangingRecord[];
}

describe('startChangingUpstream', () => {
  it('pages by record index and filters by modification day', async () => {
    let clock = Date.parse('2026-03-10T12:00:00Z');
    upstream = await startChangingUpstream({ seed: 7, records: 40, now: () => new Date(clock) });
    const all = upstream.records();
    expect(await get('limit=1024')).toEqual(all);
    expect(await get('limit=10&offset=35')).toEqual(all.slice(35));
    expect(await get('')).toHaveLength(40);
    clock += 86_400_000;
    upstream.change({ modify: 3, insert: 2 });
    const changed = upstream.records().filter((row) => row.modifiedAt.startsWith('2026-03-11'));
    expect(changed.length).toBeGreaterThanOrEqual(3);
    expect(await get('modifiedSince=2026-03-11')).toEqual(changed);
    const old = upstream.records().filter((row) => row.modifiedAt < '2026-03-05');
    expect(old.length).toBeGreaterThan(0);
    expect((await get('modifiedSince=2026-03-05&limit=1024')).length).toBe(42 - old.length);
  });

  it('keeps a modified record in its place and inserts new ones among the others', async () => {
    upstream = await startChangingUpstream({ seed: 3, records: 30, now: () => new Date() });
    const before = upstream.records().map((row) => row.locationId);
    upstream.change({ modify: 5, insert: 0 });
    expect(upstream.records().map((row) => row.locationId)).toEqual(before);
    upstream.change({ modify: 0, insert: 10 });
    const after = upstream.records().map((row) => row.locationId);
    expect(after.filter((key) => before.includes(key))).toEqual(before);
    // Ten insertions at random places do not all land after the last record.
    expect(after.slice(0, 30)).not.toEqual(before);
  });

  it('runs the page hook before answering, and never answers a dropped page', async () => {
    upstream = await startChangingUpstream({ seed: 1, records: 5, now: () => new Date() });
    const seen: number[] = [];
    upstream.onPage(async (page) => {
      seen.push(page.offset);
      upstream?.change({ modify: 0, insert: 1 });
      return page.offset === 3 ? 'drop' : undefined;
    });
    expect(await get('limit=2&offset=0')).toHaveLength(2);
    await expect(fetch(`${upstream.url}${PATH}?limit=2&offset=3`)).rejects.toThrow();
    expect(seen).toEqual([0, 3]);
    expect(upstream.records()).toHaveLength(7);
  });
});

describe('runSyncRounds', () => {
  it('finds the records a syncer misses when it takes a stopped run for a complete one', async () => {
    workDir = mkdtempSync(join(tmpdir(), 'changing-upstream-'));
    const script = join(workDir, 'forgetful-syncer.mjs');
    writeFileSync(
      script,
      `import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
const [url, statePath, mirrorPath, now, pageSize] = process.argv.slice(2);
const saved = existsSync(statePath) ? JSON.parse(readFileSync(statePath, 'utf8')) : undefined;
const next = new Date(Date.parse(now) - 86400000).toISOString().slice(0, 10);
const save = () => {
  writeFileSync(statePath + '.tmp', JSON.stringify({ next }));
  renameSync(statePath + '.tmp', statePath);
};
for (let offset = 0; ; offset += Number(pageSize)) {
  const query = new URLSearchParams({ limit: pageSize, offset: String(offset) });
  if (saved !== undefined) query.set('modifiedSince', saved.next);
  const page = await (await fetch(url + '${PATH}?' + query)).json();
  if (page.length === 0) break;
  for (const record of page) appendFileSync(mirrorPath, JSON.stringify(record) + '\\n');
  // The flaw: the watermark is saved after every page, as if the run were complete.
  save();
}
save();
`,
    );
    const result = await runSyncRounds({ syncer: { script }, rounds: 3, seed: 11, workDir });
    expect(result.kills).toBeGreaterThan(0);
    expect(result.missing).toBeGreaterThan(0);
    expect(result.firstFailure?.keys.length).toBeGreaterThan(0);
    expect(result.read).toBeGreaterThan(0);
  }, 60_000);
});
