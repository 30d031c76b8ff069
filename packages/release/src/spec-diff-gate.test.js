// @ts-check
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addChangeset,
  createFixtureWorkspace as fixtureRepo,
  removeFixtureWorkspaces,
  tagOnOtherBranch,
  writeFixtureFile as write,
} from './fixture-workspace.js';
import { changesetToAdd, formatVerdicts, runSpecDiffGate } from './spec-diff-gate.js';
import { checkVersionRule } from './version-rule.js';

afterAll(removeFixtureWorkspaces);

/** @param {string} root @param {string} [base] */
async function verdictOf(root, base) {
  const verdicts = await runSpecDiffGate({ root, base });
  const orders = verdicts.find((v) => v.name === '@fixture/orders');
  if (!orders) throw new Error(formatVerdicts(verdicts));
  return orders;
}

describe('runSpecDiffGate', () => {
  describe.each(['removed-response-field', 'parameter-made-required', 'new-response-enum-value'])(
    'on the breaking fixture %s',
    (name) => {
      it('fails when the changeset says minor, though the spec moves to 2.0.0', async () => {
        const root = await fixtureRepo({ fixture: name, revisionSpecVersion: '2.0.0' });
        await addChangeset(root, { orders: 'minor' });
        const verdict = await verdictOf(root);
        expect(verdict.required).toBe('major');
        expect(verdict.problem).toMatch(/@fixture\/orders needs a major release/);
        expect(verdict.problem).toContain(`"'@fixture/orders': major"`);
      });

      it('passes when the changeset says major and the spec moves to 2.0.0', async () => {
        const root = await fixtureRepo({ fixture: name, revisionSpecVersion: '2.0.0' });
        await addChangeset(root, { orders: 'major' });
        const verdict = await verdictOf(root);
        expect(verdict.base).toBe('@fixture/orders@1.0.0');
        expect(verdict.problem).toBeUndefined();
      });

      it('fails any release while the spec breaks users but stays at 1.0.0', async () => {
        const root = await fixtureRepo({ fixture: name });
        for (const bump of ['minor', 'major']) {
          await addChangeset(root, { orders: bump });
          const verdict = await verdictOf(root);
          expect(verdict.problem).toMatch(
            /breaks users .* but stays at 1\.0\.0.* set info\.version to 2\.0\.0 .* fix the spec/,
          );
          expect(verdict.fix).toBe('none');
        }
      });
    },
  );

  it('asks for a major release when only info.version and the server move to v2', async () => {
    const root = await fixtureRepo({ fixture: 'new-major-version', revisionSpecVersion: '2.0.0' });
    await addChangeset(root, { orders: 'patch' });
    const verdict = await verdictOf(root);
    expect(verdict).toMatchObject({ required: 'major', fix: 'major' });
    expect(verdict.problem).toMatch(
      /needs a major release from 1\.0\.0: specs\/orders\/openapi\.yaml is at 2\.0\.0, a new major version of the upstream/,
    );
    await addChangeset(root, { orders: 'major' });
    expect(await verdictOf(root)).toMatchObject({ nextVersion: '2.0.0', problem: undefined });
  });

  it('fails a major release that the spec does not make, as the version rule does', async () => {
    const root = await fixtureRepo({ fixture: 'new-optional-parameter' });
    await addChangeset(root, { orders: 'major' });
    const verdict = await verdictOf(root);
    expect(verdict).toMatchObject({ fix: 'minor', nextVersion: '2.0.0' });
    expect(verdict.problem).toMatch(/its major version must stay 1/);
  });

  it('needs a minor release for a new optional parameter', async () => {
    const root = await fixtureRepo({ fixture: 'new-optional-parameter' });
    await addChangeset(root, { orders: 'patch' });
    expect((await verdictOf(root)).problem).toMatch(/needs a minor release/);
    await addChangeset(root, { orders: 'minor' });
    expect((await verdictOf(root)).problem).toBeUndefined();
  });

  it('needs a patch release for a description-only change, and nothing more', async () => {
    const root = await fixtureRepo({ fixture: 'description-only' });
    expect((await verdictOf(root)).problem).toMatch(/no pending changeset releases it/);
    await addChangeset(root, { orders: 'patch' });
    const verdict = await verdictOf(root);
    expect(verdict).toMatchObject({ required: 'patch', planned: 'patch', problem: undefined });
    expect(verdict.nextVersion).toBe('1.0.1');
  });

  it('lets a minor release of a 0.x package carry a breaking change, marked as one', async () => {
    const root = await fixtureRepo({ fixture: 'removed-response-field', version: '0.3.0' });
    await addChangeset(root, { orders: 'patch' });
    expect((await verdictOf(root)).problem).toMatch(
      /needs a minor release from 0\.3\.0 \(below 1\.0\.0 a minor release may carry major changes\)/,
    );
    await addChangeset(root, { orders: 'minor' });
    expect((await verdictOf(root)).problem).toMatch(
      /@fixture\/orders: the spec change breaks users, so its changeset must say so under "### Breaking Changes"/,
    );
    await write(
      join(root, '.changeset/spec-change.md'),
      "---\n'@fixture/orders': minor\n---\n\n### Breaking Changes\n\n- `Order.total` is gone.\n",
    );
    expect((await verdictOf(root)).problem).toBeUndefined();
  });

  it('asks exactly the packages generated from the changed spec for a release', async () => {
    const root = await fixtureRepo({
      fixture: 'removed-response-field',
      packages: ['orders', 'orders-sandbox'],
      revisionSpecVersion: '2.0.0',
    });
    await addChangeset(root, { orders: 'major' });
    const verdicts = await runSpecDiffGate({ root });
    const byName = Object.fromEntries(verdicts.map((v) => [v.name, v]));
    expect(byName['@fixture/orders']?.problem).toBeUndefined();
    expect(byName['@fixture/orders-sandbox']?.problem).toMatch(/needs a major release/);
    expect(byName['@fixture/billing']).toMatchObject({ required: 'none', problem: undefined });
  });

  it('counts a never released package as released at 0.0.0 without its specs', async () => {
    const root = await fixtureRepo({
      fixture: 'description-only',
      version: '0.0.0',
      released: false,
    });
    const verdict = await verdictOf(root);
    expect(verdict).toMatchObject({ base: undefined, baseVersion: '0.0.0', required: 'minor' });
    expect(verdict.specs).toEqual([expect.objectContaining({ isNew: true, bump: 'minor' })]);
    expect(verdict.problem).toMatch(/needs a patch release from 0\.0\.0 \(below 1\.0\.0/);
    await addChangeset(root, { orders: 'minor' });
    expect(await verdictOf(root)).toMatchObject({ nextVersion: '0.1.0', problem: undefined });
  });

  it('judges the same after `changeset version` turned the changesets into versions', async () => {
    const root = await fixtureRepo({
      fixture: 'removed-response-field',
      revisionSpecVersion: '2.0.0',
    });
    await write(join(root, 'packages/orders/package.json'), {
      name: '@fixture/orders',
      version: '1.1.0',
    });
    expect((await verdictOf(root)).problem).toMatch(/1\.0\.0 → 1\.1\.0 is a minor release/);
    await write(join(root, 'packages/orders/package.json'), {
      name: '@fixture/orders',
      version: '2.0.0',
    });
    expect(await verdictOf(root)).toMatchObject({ planned: 'major', problem: undefined });
  });

  it('compares with --base when given', async () => {
    const root = await fixtureRepo({
      fixture: 'parameter-made-required',
      released: false,
      revisionSpecVersion: '2.0.0',
    });
    await addChangeset(root, { orders: 'minor' });
    const verdict = await verdictOf(root, 'main');
    expect(verdict).toMatchObject({ base: 'main', baseVersion: '1.0.0', required: 'major' });
    expect(verdict.problem).toMatch(/needs a major release/);
  });

  it('keeps a maintenance release of v1 from taking the latest dist-tag while 2.0.0 is out', async () => {
    const root = await fixtureRepo({ fixture: 'description-only' });
    await tagOnOtherBranch(root, '@fixture/orders@2.0.0');
    await addChangeset(root, { orders: 'patch' });
    const verdict = await verdictOf(root);
    expect(verdict).toMatchObject({ base: '@fixture/orders@1.0.0', nextVersion: '1.0.1' });
    expect(verdict.problem).toBe(
      '@fixture/orders 1.0.1 is a maintenance release of v1 while 2.0.0 is out: set "publishConfig": { "tag": "maintenance-v1" } in packages/orders/package.json, so that it does not take the latest dist-tag.',
    );
    await write(join(root, 'packages/orders/package.json'), {
      name: '@fixture/orders',
      version: '1.0.0',
      publishConfig: { tag: 'maintenance-v1' },
    });
    expect((await verdictOf(root)).problem).toBeUndefined();
  });

  it('refuses a base that names no commit', async () => {
    const root = await fixtureRepo({ fixture: 'description-only' });
    await expect(runSpecDiffGate({ root, base: 'no-such-ref' })).rejects.toThrow(
      /--base "no-such-ref" names no commit/,
    );
  });

  it('prints each package, its changes and the fix', async () => {
    const root = await fixtureRepo({ fixture: 'removed-response-field' });
    await addChangeset(root, { orders: 'minor' });
    const text = formatVerdicts(await runSpecDiffGate({ root }));
    expect(text).toContain('✓ @fixture/billing 1.0.0 → 1.0.0 (since @fixture/billing@1.0.0)');
    expect(text).toContain(
      '✗ @fixture/orders 1.0.0 → 1.1.0 (since @fixture/orders@1.0.0): specs need major, release is minor, upstream v1',
    );
    expect(text).toMatch(/major: Property `total` of `Order` was removed\. \(property-removed\)/);
  });
});

describe('the gate and the version rule', () => {
  const fixtures = [
    'description-only',
    'new-optional-parameter',
    'removed-response-field',
    'parameter-made-required',
    'new-response-enum-value',
    'new-major-version',
  ];
  const cases = fixtures.flatMap((fixture) =>
    ['1.0.0', '2.0.0'].map((revisionSpecVersion) => ({ fixture, revisionSpecVersion })),
  );

  it.each(cases)(
    'agree on $fixture with the spec at $revisionSpecVersion, and the fix the gate names passes both',
    async ({ fixture, revisionSpecVersion }) => {
      const root = await fixtureRepo({ fixture, revisionSpecVersion });
      const verdicts = await runSpecDiffGate({ root });
      const changeset = changesetToAdd(verdicts);
      const [rule] = await checkVersionRule(root);
      if (rule?.problem) expect(verdicts.find((v) => v.problem)?.problem).toBeDefined();
      if (!changeset) return;
      await write(join(root, '.changeset/fix.md'), `${changeset}\n\nThe fix.\n`);
      const fixed = await verdictOf(root);
      expect(fixed.problem, changeset).toBeUndefined();
      expect((await checkVersionRule(root))[0]?.problem).toBeUndefined();
    },
  );
});
