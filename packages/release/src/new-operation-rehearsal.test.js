// @ts-check
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyWorkspace } from './spec-change-rehearsal.js';

const run = promisify(execFile);

/**
 * "New resources arrive without a new version": a paged read added to a spec is served by the
 * sandbox and listed by the command line after `generate` and `build`, with no other edit.
 */
/** @type {Awaited<ReturnType<typeof copyWorkspace>>} */
let workspace;
/** A folder without a config file, where the command line starts its embedded sandbox. */
let home = '';

/** Runs the copy's `partner-apis` as a user would, with no configured environment. */
async function cli(/** @type {string[]} */ args) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('PARTNER_APIS_')),
  );
  return run(process.execPath, [join(workspace.root, 'apps/cli/dist/bin.js'), ...args], {
    cwd: home,
    env: { ...env, HOME: home, XDG_CONFIG_HOME: home, COLUMNS: '100' },
    maxBuffer: 256 * 1024 * 1024,
  });
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'new-operation-home-'));
  workspace = await copyWorkspace(
    ['riskengineering', 'exposure', 'liability', 'approvals', 'sandbox', 'verify'],
    ['cli'],
  );
  await workspace.editSpec('riskengineering', (doc) => {
    // A new collection beside the gradings, read like them.
    const gradings = doc.getIn(['paths', '/open/portal-api/riskengineering/Gradings', 'get']);
    const inspections = {
      .../** @type {any} */ (gradings).toJSON(),
      operationId: 'listInspections',
      summary: 'List inspections',
    };
    doc.setIn(
      ['paths', '/open/portal-api/riskengineering/Inspections'],
      doc.createNode({ get: inspections }),
    );
  });
  for (const pkg of ['riskengineering', 'sandbox']) await workspace.regenerate(pkg);
  for (const pkg of ['riskengineering', 'sandbox', 'apps/cli']) await workspace.build(pkg);
}, 240_000);

afterAll(async () => {
  await workspace?.remove();
  if (home !== '') await rm(home, { recursive: true, force: true });
});

describe('a paged read added to a spec, with no other edit', () => {
  it('is a command of its service, with the help the spec gives it', async () => {
    const { stdout } = await cli(['riskengineering', '--help']);
    expect(stdout).toMatch(/inspections +inspections: list/);
    const help = await cli(['riskengineering', 'inspections', 'list', '--help']);
    expect(help.stdout).toContain('List inspections');
    expect(help.stdout).toContain('--modified-since');
    expect(help.stdout).toContain('--page-size');
  });

  it('is served by the sandbox and listed, every page of it', async () => {
    const ndjson = await cli([
      ...['riskengineering', 'inspections', 'list'],
      ...['--page-size', '1024', '-o', 'ndjson'],
    ]);
    const records = ndjson.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.length).toBeGreaterThan(1024);
    expect(new Set(records.map((record) => record.gradingId)).size).toBe(records.length);
  });
});
