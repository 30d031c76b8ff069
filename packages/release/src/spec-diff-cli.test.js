// @ts-check
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addChangeset,
  createFixtureWorkspace,
  removeFixtureWorkspaces,
} from './fixture-workspace.js';

const run = promisify(execFile);
const cli = fileURLToPath(new URL('./spec-diff-cli.js', import.meta.url));

afterAll(removeFixtureWorkspaces);

/**
 * Runs `partner-apis-spec-diff` in `cwd`, as `pnpm spec:diff` does at the repository root.
 * @param {string} cwd
 * @param {string[]} [args]
 * @returns {Promise<{ code: number, stdout: string, stderr: string }>}
 */
async function specDiff(cwd, args = []) {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      cwd,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } =
      /** @type {{ code: number, stdout: string, stderr: string }} */ (error);
    return { code, stdout, stderr };
  }
}

describe('pnpm spec:diff', () => {
  it('exits 1 and names the changeset to add when the release is too small', async () => {
    const root = await createFixtureWorkspace({
      fixture: 'parameter-made-required',
      revisionSpecVersion: '2.0.0',
    });
    await addChangeset(root, { orders: 'minor' });
    const { code, stdout, stderr } = await specDiff(root);
    expect(code).toBe(1);
    expect(stdout).toContain(
      '✗ @fixture/orders 1.0.0 → 1.1.0 (since @fixture/orders@1.0.0): specs need major',
    );
    expect(stdout).toContain(`Add a changeset with "'@fixture/orders': major"`);
    expect(stdout).toContain(`Add this changeset (pnpm changeset)`);
    expect(stdout).toContain(`---\n'@fixture/orders': major\n---`);
    expect(stderr).toContain('spec:diff: 1 package(s) need another release.');
  });

  it('exits 0 when the changesets cover every change', async () => {
    const root = await createFixtureWorkspace({
      fixture: 'parameter-made-required',
      revisionSpecVersion: '2.0.0',
    });
    await addChangeset(root, { orders: 'major' });
    const { code, stdout } = await specDiff(root, ['--base', 'main']);
    expect(code).toBe(0);
    expect(stdout).toContain('✓ @fixture/orders 1.0.0 → 2.0.0 (since main)');
    expect(stdout).toContain('the pending changesets cover every spec change');
  });

  it('exits 2 with the usage on an unknown option, and with the reason on a bad base', async () => {
    const root = await createFixtureWorkspace({ fixture: 'description-only' });
    const unknown = await specDiff(root, ['--since', 'main']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Usage: pnpm spec:diff [--base REF]');
    const badBase = await specDiff(root, ['--base', 'no-such-ref']);
    expect(badBase).toMatchObject({ code: 2, stdout: '' });
    expect(badBase.stderr).toContain('--base "no-such-ref" names no commit');
  });
});
