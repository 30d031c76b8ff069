import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createExposureClient } from '@partner-apis/exposure';
import { startSandbox } from '@partner-apis/sandbox';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCommandContext } from '../command-context.js';
import { createProgram } from '../program.js';
import { UsageError } from '../usage-error.js';
import { syncToOutput, type Syncable, type SyncCommandOptions } from './sync.js';

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), 'cli-sync-'));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

function contextWithStdout() {
  const stdout = new PassThrough();
  let written = '';
  stdout.on('data', (chunk: Buffer) => (written += chunk.toString()));
  const stderr = new PassThrough();
  stderr.resume();
  const context = createCommandContext({ stdout, stderr, env: {}, cwd });
  return { context, stdout: () => written };
}

/**
 * A paged read whose `sync()` hands out `pages` (each checkpoint is the records so far), saving
 * after each page as core's does; `failAfter` pages it fails like a dropped connection.
 */
function syncable(pages: readonly (readonly string[])[], failAfter = Infinity) {
  const given: unknown[] = [];
  const collection: Syncable = {
    sync({ checkpoint, onCheckpoint }) {
      given.push(checkpoint);
      const start = typeof checkpoint === 'object' ? (checkpoint as { done: number }).done : 0;
      const run = {
        checkpoint: { done: start } as unknown,
        async *[Symbol.asyncIterator]() {
          for (let page = start; page < pages.length; page += 1) {
            if (page - start === failAfter) throw new Error('connection reset');
            for (const id of pages[page] ?? []) yield { id };
            run.checkpoint = { done: page + 1 };
            await onCheckpoint?.(run.checkpoint);
          }
        },
      };
      return run;
    },
  };
  return { collection, given };
}

const options = (extra: Partial<SyncCommandOptions> = {}): SyncCommandOptions => ({
  state: 'locations.state.json',
  pageSize: 2,
  format: 'ndjson',
  ...extra,
});
const state = () => JSON.parse(readFileSync(join(cwd, 'locations.state.json'), 'utf8')) as unknown;

describe('syncToOutput', () => {
  it('writes the records, saves the state after every page on stdout, and resumes from it', async () => {
    const pages = [['A', 'B'], ['C', 'D'], ['E']];
    const broken = syncable(pages, 2);
    const first = contextWithStdout();
    await expect(
      syncToOutput(first.context, 'exposure locations', broken.collection, options()),
    ).rejects.toThrow('connection reset');
    expect(first.stdout()).toBe('{"id":"A"}\n{"id":"B"}\n{"id":"C"}\n{"id":"D"}\n');
    expect(state()).toEqual({ done: 2 });

    const again = syncable(pages);
    const second = contextWithStdout();
    const count = await syncToOutput(
      second.context,
      'exposure locations',
      again.collection,
      options(),
    );
    expect(again.given).toEqual([{ done: 2 }]);
    expect([count, second.stdout()]).toEqual([1, '{"id":"E"}\n']);
    expect(state()).toEqual({ done: 3 });
    expect(readdirSync(cwd)).toEqual(['locations.state.json']);
  });

  it('saves the state of an --out file only with the complete file', async () => {
    const pages = [['A'], ['B'], ['C']];
    writeFileSync(join(cwd, 'locations.state.json'), JSON.stringify({ done: 0 }));
    const { context } = contextWithStdout();
    await expect(
      syncToOutput(
        context,
        'exposure locations',
        syncable(pages, 2).collection,
        options({ out: 'changes.ndjson' }),
      ),
    ).rejects.toThrow('connection reset');
    expect(state()).toEqual({ done: 0 });

    await syncToOutput(
      context,
      'exposure locations',
      syncable(pages).collection,
      options({ out: 'changes.ndjson' }),
    );
    expect(readFileSync(join(cwd, 'changes.ndjson'), 'utf8')).toBe(
      '{"id":"A"}\n{"id":"B"}\n{"id":"C"}\n',
    );
    expect(state()).toEqual({ done: 3 });
  });

  it('saves the state of csv at the end, once its columns are fixed and its rows written', async () => {
    const { context, stdout } = contextWithStdout();
    await expect(
      syncToOutput(
        context,
        'exposure locations',
        syncable([['A'], ['B']], 1).collection,
        options({ format: 'csv' }),
      ),
    ).rejects.toThrow('connection reset');
    expect(existsSync(join(cwd, 'locations.state.json'))).toBe(false);
    await syncToOutput(
      context,
      'exposure locations',
      syncable([['A'], ['B']]).collection,
      options({ format: 'csv' }),
    );
    expect(stdout()).toBe('id\nA\nB\n');
    expect(state()).toEqual({ done: 2 });
  });

  it.each([
    ['missing/locations.state.json', 'its folder does not exist'],
    ['.', 'it is a folder'],
  ])(
    '--state %s it cannot write: a usage error before the first request, nothing on stdout',
    async (file, problem) => {
      const { context, stdout } = contextWithStdout();
      const { collection, given } = syncable([['A', 'B']]);
      await expect(
        syncToOutput(context, 'exposure locations', collection, options({ state: file })),
      ).rejects.toThrow(new UsageError(`cannot write --state ${file}: ${problem}`));
      expect(given).toEqual([]);
      expect(stdout()).toBe('');
    },
  );

  it('refuses a state file that is not JSON', async () => {
    writeFileSync(join(cwd, 'locations.state.json'), '{"done":');
    const { context } = contextWithStdout();
    const { collection } = syncable([['A']]);
    await expect(
      syncToOutput(context, 'exposure locations', collection, options()),
    ).rejects.toThrow(
      new UsageError(
        '--state locations.state.json is not JSON: remove it to read everything again, or restore the saved one',
      ),
    );
  });

  it("syncs the sandbox's locations with the exposure client: all of them, then what changed", async () => {
    const sb = await startSandbox({ sizes: { exposureLocations: 300 } });
    try {
      const exposure = createExposureClient({
        baseUrl: sb.urls.exposure,
        tokenUrl: sb.urls.tokenUrl,
        credentials: sb.credentials.exposure,
      });
      const first = contextWithStdout();
      await syncToOutput(
        first.context,
        'exposure locations',
        exposure.locations,
        options({ pageSize: 128 }),
      );
      const lines = first.stdout().trim().split('\n');
      expect(
        new Set(lines.map((line) => (JSON.parse(line) as { locationId: string }).locationId)).size,
      ).toBe(300);
      const saved = state() as { since: unknown; next: string; complete: boolean };
      expect(saved).toMatchObject({ since: null, complete: true });

      const second = contextWithStdout();
      await syncToOutput(second.context, 'exposure locations', exposure.locations, options());
      const changed = lines.filter(
        (line) => (JSON.parse(line) as { modifiedDate: string }).modifiedDate >= saved.next,
      );
      expect(second.stdout()).toBe(changed.map((line) => `${line}\n`).join(''));
      expect(state()).toMatchObject({ since: saved.next, complete: true });
    } finally {
      await sb.close();
    }
  });
});

describe('sync commands', () => {
  it('are on each paged read the table marks syncable, with a required --state', async () => {
    const { program } = await createProgram({
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      env: {},
      cwd,
    });
    const syncable = [];
    for (const service of program.commands) {
      for (const resource of service.commands) {
        const command = resource.commands.find((c) => c.name() === 'sync');
        if (command === undefined) continue;
        syncable.push(`${service.name()} ${resource.name()}`);
        expect(command.options.find((o) => o.long === '--state')?.mandatory).toBe(true);
        expect(command.options.find((o) => o.long === '--output')?.defaultValue).toBe('ndjson');
      }
    }
    expect(syncable).toEqual([
      'exposure locations',
      'riskengineering gradings',
      'riskengineering locations',
    ]);
  });
});
