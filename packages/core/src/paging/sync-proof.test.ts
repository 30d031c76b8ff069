import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSyncRounds } from '@partner-apis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Rounds in CI; `pnpm bench` runs 100. Each is about four syncing processes. */
const ROUNDS = 10;

let workDir: string;
let script: string;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'sync-proof-'));
  script = join(workDir, 'sync-child.mjs');
  // The child runs the sources under test, bundled with the build's own esbuild into one file
  // node runs without a TypeScript loader.
  const require = createRequire(import.meta.url);
  const esbuild = createRequire(require.resolve('@partner-apis/build'))('esbuild') as {
    build(options: Record<string, unknown>): Promise<unknown>;
  };
  await esbuild.build({
    entryPoints: [fileURLToPath(new URL('./sync-child.fixture.ts', import.meta.url))],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['@opentelemetry/api'],
    logLevel: 'silent',
  });
});

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('createSyncRun against a collection that changes while it is read', () => {
  it(`leaves no record missing or stale after two complete runs, across ${ROUNDS} seeded rounds with a SIGKILL in each run`, async () => {
    const result = await runSyncRounds({ syncer: { script }, rounds: ROUNDS, seed: 2026, workDir });
    console.info(
      `sync proof: ${result.rounds} rounds, ${result.expected} records expected, ` +
        `${result.missing} missing, ${result.stale} stale, ${result.readTwice} read twice ` +
        `of ${result.read} read, ${result.kills} processes killed`,
    );
    expect(result.firstFailure).toBeUndefined();
    expect([result.missing, result.stale]).toEqual([0, 0]);
    // The rounds did what they claim: every run was killed once and changes came in between.
    expect(result.kills).toBeGreaterThanOrEqual(ROUNDS);
    expect(result.expected).toBeGreaterThan(ROUNDS * 300);
  }, 120_000);
});
