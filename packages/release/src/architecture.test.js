// @ts-check
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const architecture = fileURLToPath(new URL('../../../ARCHITECTURE.md', import.meta.url));

/**
 * The lists ARCHITECTURE.md marks as measured, by name: the backticked file paths or factory
 * names between `<!-- measured: NAME -->` and `<!-- /measured -->`, in the order written.
 */
function measuredLists(/** @type {string} */ text) {
  /** @type {Record<string, string[]>} */
  const lists = {};
  for (const block of text.matchAll(/<!-- measured: (.+?) -->([\s\S]*?)<!-- \/measured -->/g)) {
    const body = block[2] ?? '';
    lists[block[1] ?? ''] = [...body.matchAll(/`(packages\/[^`]+\.ts|create\w+)`/g)].map(
      (m) => m[1] ?? '',
    );
  }
  return lists;
}

/** @type {Record<string, string[]>} */
let measured;
/** @type {Record<string, string[]>} */
let stated;

beforeAll(async () => {
  const probe = fileURLToPath(new URL('./architecture-probe.js', import.meta.url));
  const { stdout } = await run(process.execPath, ['--enable-source-maps', probe], {
    timeout: 60_000,
  });
  measured = JSON.parse(stdout);
  stated = measuredLists(await readFile(architecture, 'utf8'));
}, 90_000);

describe('ARCHITECTURE.md states what the code does', () => {
  it.each(['exposure.locations.list()', 'liability.quotes.create()'])(
    'lists the source files one call of %s crosses, from the method to the socket',
    (call) => {
      // The stack runs from the socket up; the document from the method down.
      expect(stated[call]).toEqual([...(measured[call] ?? [])].reverse());
    },
  );

  it('lists the factories that build a client', () => {
    const call = 'createExposureClient()';
    expect([...(stated[call] ?? [])].sort()).toEqual(measured[call]);
  });
});
