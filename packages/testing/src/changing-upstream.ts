import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** One record of the changing upstream; `version` counts its modifications. */
export interface ChangingRecord {
  readonly locationId: string;
  readonly version: number;
  /** When it was last modified (ISO date-time, the upstream's clock). */
  readonly modifiedAt: string;
}

/** One page request as the changing upstream saw it. */
export interface ChangingPageRequest {
  readonly offset: number;
  readonly limit: number;
  readonly modifiedSince: string | undefined;
}

/** Options of `startChangingUpstream`. */
export interface ChangingUpstreamOptions {
  /** Seeds the choice of records changed and where new ones go. */
  readonly seed: number;
  /** Records at the start, their modification times spread over the 30 days before `now()`. */
  readonly records: number;
  /** The upstream's clock: what a modification is stamped with. */
  readonly now: () => Date;
  /** The path of the collection; the exposure locations by default. */
  readonly path?: string | undefined;
}

/** A running changing upstream. */
export interface ChangingUpstream {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  /** Copies of the records, in the order the collection is paged. */
  records(): ChangingRecord[];
  /** Modifies `modify` records where they stand and inserts `insert` at random places, now. */
  change(counts: { readonly modify: number; readonly insert: number }): void;
  /**
   * Runs before each page is answered, e.g. to change records or kill the reader; a page whose
   * hook resolves to `'drop'` is never answered (its connection is destroyed).
   */
  onPage(hook: ((request: ChangingPageRequest) => Promise<'drop' | void>) | undefined): void;
  /** Destroys every connection and stops listening. */
  close(): Promise<void>;
}

const DAY_MS = 86_400_000;
const MAX_LIMIT = 1024;

/** A small seeded generator (mulberry32): the same seed makes the same changes. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function nonNegative(value: string | null, fallback: number): number {
  const n = Number(value ?? fallback);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/**
 * A paged collection on 127.0.0.1 that changes while it is read, as the exposure and risk
 * engineering reads are documented: a JSON array per page, `limit` (1–1024, 128 by default)
 * and `offset` (a zero-based record index), and `modifiedSince` (a day: only records whose
 * modification day, UTC, is that day or later). Records keep their place when modified; new
 * ones are inserted anywhere, so a reader's cursor sees later records shift.
 */
export async function startChangingUpstream(
  options: ChangingUpstreamOptions,
): Promise<ChangingUpstream> {
  const random = seededRandom(options.seed);
  const path = options.path ?? '/open/portal-api/exposure/locations';
  const start = options.now().getTime();
  let created = 0;
  const newKey = () => `LOC-${String((created += 1)).padStart(7, '0')}`;
  const rows: ChangingRecord[] = Array.from({ length: options.records }, () => ({
    locationId: newKey(),
    version: 1,
    modifiedAt: new Date(start - Math.floor(random() * 30 * DAY_MS)).toISOString(),
  }));
  let hook: ((request: ChangingPageRequest) => Promise<'drop' | void>) | undefined;

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== path) {
      answer(response, 404, { code: 'not_found', message: `no route ${url.pathname}` });
      return;
    }
    const limit = nonNegative(url.searchParams.get('limit'), 128);
    const page: ChangingPageRequest = {
      offset: nonNegative(url.searchParams.get('offset'), 0),
      limit: Math.min(Math.max(limit, 1), MAX_LIMIT),
      modifiedSince: url.searchParams.get('modifiedSince') ?? undefined,
    };
    void (async () => {
      if ((await hook?.(page)) === 'drop') {
        response.destroy();
        return;
      }
      const since = page.modifiedSince;
      const matching =
        since === undefined ? rows : rows.filter((row) => row.modifiedAt.slice(0, 10) >= since);
      answer(response, 200, matching.slice(page.offset, page.offset + page.limit));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    records: () => rows.map((row) => ({ ...row })),
    change({ modify, insert }) {
      const modifiedAt = options.now().toISOString();
      for (let i = 0; i < modify && rows.length > 0; i += 1) {
        const at = Math.floor(random() * rows.length);
        const row = rows[at] as ChangingRecord;
        rows[at] = { ...row, version: row.version + 1, modifiedAt };
      }
      for (let i = 0; i < insert; i += 1) {
        const at = Math.floor(random() * (rows.length + 1));
        rows.splice(at, 0, { locationId: newKey(), version: 1, modifiedAt });
      }
    },
    onPage(next) {
      hook = next;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The syncing process `runSyncRounds` starts: `node <script> <url> <state file> <mirror file>
 * <now> <page size>`. It syncs the collection at `<url>`, resuming from the checkpoint in the
 * state file when there is one, appends each record it reads to the mirror file as one JSON
 * line before the checkpoint after that record's page is saved, and exits with 0 once the run
 * is complete. `<now>` is the run's start time (ISO), the clock of the upstream.
 */
export interface SyncProcess {
  /** The script `node` runs. */
  readonly script: string;
}

/** Options of `runSyncRounds`. */
export interface SyncRoundsOptions {
  readonly syncer: SyncProcess;
  readonly rounds: number;
  /** The first round's seed; round `i` uses `seed + i`. */
  readonly seed: number;
  /** Records at the start of each round; 300 by default. */
  readonly records?: number | undefined;
  /** The page size the syncer asks for; 25 by default. */
  readonly pageSize?: number | undefined;
  /** A folder for the state and mirror files; emptied of them after each round. */
  readonly workDir: string;
}

/** What `runSyncRounds` found, over every round. */
export interface SyncRoundsResult {
  readonly rounds: number;
  /** Records that existed when the second run of a round started, summed over the rounds. */
  readonly expected: number;
  /** Of those, records the mirror lacked after the second run. */
  readonly missing: number;
  /** Of those, records the mirror held in a version older than at the second run's start. */
  readonly stale: number;
  /** Records read again in a version the mirror already held: the cost of the overlap. */
  readonly readTwice: number;
  /** Records read in all. */
  readonly read: number;
  /** Syncing processes killed with SIGKILL mid-run. */
  readonly kills: number;
  /** The first round with a missing or stale record, with its keys, for a failure message. */
  readonly firstFailure?: { readonly seed: number; readonly keys: readonly string[] } | undefined;
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

/**
 * Proves a syncing process against a collection that changes while it is read: per round, a
 * fresh seeded upstream; a first run without checkpoint, SIGKILLed on a random page and
 * started again until complete; time passes with more changes; a second run from the first's
 * checkpoint, killed and started again likewise. Records are modified and inserted before every
 * page is answered, pages asked at once are answered in any order, and the clock moves on by
 * up to 20 minutes per page, so runs cross midnight. The mirror (the records read, upserted by key in the order read) is compared with
 * the upstream as it was when the second run started.
 */
export async function runSyncRounds(options: SyncRoundsOptions): Promise<SyncRoundsResult> {
  const records = options.records ?? 300;
  const pageSize = options.pageSize ?? 25;
  const statePath = join(options.workDir, 'sync-state.json');
  const mirrorPath = join(options.workDir, 'sync-mirror.ndjson');
  let totals = { expected: 0, missing: 0, stale: 0, readTwice: 0, read: 0, kills: 0 };
  let firstFailure: SyncRoundsResult['firstFailure'];

  for (let round = 0; round < options.rounds; round += 1) {
    const seed = options.seed + round;
    const random = seededRandom(seed ^ 0x5eed);
    // Each round starts at a random minute of a day in March 2026.
    let clock = Date.UTC(2026, 2, 2) + Math.floor(random() * DAY_MS);
    const upstream = await startChangingUpstream({ seed, records, now: () => new Date(clock) });
    rmSync(statePath, { force: true });
    writeFileSync(mirrorPath, '');

    const syncRun = async (): Promise<void> => {
      const pages = Math.ceil(records / pageSize) + 1;
      const killOnPage = 1 + Math.floor(random() * pages);
      let served = 0;
      let current: ChildProcess | undefined;
      let killed = false;
      upstream.onPage(async () => {
        // Pages asked at once are answered in any order, as by a service with many servers.
        await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 3)));
        clock += Math.floor(random() * 20 * 60_000);
        upstream.change({
          modify: Math.floor(random() * 4),
          insert: Math.floor(random() * 3),
        });
        served += 1;
        if (killed || served !== killOnPage || current === undefined) return undefined;
        killed = true;
        totals.kills += 1;
        const exited = new Promise((resolve) => current?.once('close', resolve));
        current.kill('SIGKILL');
        await exited;
        return 'drop';
      });
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const child = spawn(
          process.execPath,
          [
            options.syncer.script,
            upstream.url,
            statePath,
            mirrorPath,
            new Date(clock).toISOString(),
            String(pageSize),
          ],
          { stdio: ['ignore', 'ignore', 'pipe'] },
        );
        current = child;
        const { code, stderr } = await exitOf(child);
        if (code === 0) return;
        if (!(killed && attempt === 0)) {
          throw new Error(
            `round ${round} (seed ${seed}): the syncer exited with ${code}: ${stderr}`,
          );
        }
      }
      throw new Error(`round ${round} (seed ${seed}): the syncer did not complete after a restart`);
    };

    try {
      await syncRun();
      // Between the runs: a few hours to two days, with changes on the way.
      for (let step = 0; step < 4; step += 1) {
        clock += Math.floor(random() * 12 * 3_600_000);
        upstream.change({ modify: Math.floor(random() * 15), insert: Math.floor(random() * 5) });
      }
      const expected = upstream.records();
      await syncRun();

      const mirror = new Map<string, number>();
      let read = 0;
      let readTwice = 0;
      for (const line of readFileSync(mirrorPath, 'utf8').split('\n')) {
        if (line === '') continue;
        const record = JSON.parse(line) as ChangingRecord;
        read += 1;
        if (mirror.get(record.locationId) === record.version) readTwice += 1;
        mirror.set(record.locationId, record.version);
      }
      const missing = expected.filter((row) => !mirror.has(row.locationId));
      const stale = expected.filter((row) => (mirror.get(row.locationId) ?? 0) < row.version);
      const stalePresent = stale.filter((row) => mirror.has(row.locationId));
      if (firstFailure === undefined && stale.length > 0) {
        // Missing records are stale too (version 0): one list names both.
        firstFailure = { seed, keys: stale.map((row) => row.locationId) };
      }
      totals = {
        ...totals,
        expected: totals.expected + expected.length,
        missing: totals.missing + missing.length,
        stale: totals.stale + stalePresent.length,
        readTwice: totals.readTwice + readTwice,
        read: totals.read + read,
      };
    } finally {
      upstream.onPage(undefined);
      await upstream.close();
    }
  }
  rmSync(statePath, { force: true });
  rmSync(mirrorPath, { force: true });
  return { rounds: options.rounds, ...totals, firstFailure };
}
