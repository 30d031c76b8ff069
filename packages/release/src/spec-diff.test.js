// @ts-check
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diffSpecs, summariseDiffReport } from './spec-diff.js';

/** @param {string} name @param {'base' | 'revision'} side */
const fixture = (name, side) =>
  fileURLToPath(new URL(`../fixtures/${name}/${side}.yaml`, import.meta.url));

/** @param {string} name */
const diffFixture = (name) => diffSpecs(fixture(name, 'base'), fixture(name, 'revision'));

describe('diffSpecs', () => {
  it.each([
    ['removed-response-field', 'major', 'property-removed'],
    ['parameter-made-required', 'major', 'parameter-became-required'],
    ['new-response-enum-value', 'major', 'enum-values-added'],
  ])('rates %s as %s by the rule %s', async (name, bump, rule) => {
    const diff = await diffFixture(name);
    expect(diff.bump).toBe(bump);
    expect(diff.changes.flatMap((c) => c.rules)).toContain(rule);
  });

  it('rates a new major number in info.version as major, whatever else changed', async () => {
    const diff = await diffFixture('new-major-version');
    expect(diff.bump).toBe('major');
    expect(diff.changes[0]).toMatchObject({
      impact: 'major',
      pointer: '#/info/version',
      rules: ['info-version-major'],
    });
    expect(diff.changes[0]?.message).toMatch(/info\.version went from 1\.0\.0 to 2\.0\.0/);
  });

  it('rates a new optional parameter as minor', async () => {
    const diff = await diffFixture('new-optional-parameter');
    expect(diff.bump).toBe('minor');
    expect(diff.changes).toEqual([
      expect.objectContaining({ impact: 'minor', pointer: '#/paths/~1orders/get/parameters/2' }),
    ]);
  });

  it('rates a description-only change as patch', async () => {
    const diff = await diffFixture('description-only');
    expect(diff.bump).toBe('patch');
    expect(diff.changes).toHaveLength(1);
    expect(diff.changes[0]?.message).toMatch(/modified description/);
  });

  it('finds nothing between a spec and itself', async () => {
    const same = fixture('description-only', 'base');
    expect(await diffSpecs(same, same)).toEqual({ bump: 'none', changes: [] });
  });

  it('names the files when a spec cannot be read', async () => {
    await expect(
      diffSpecs('/nonexistent/base.yaml', fixture('description-only', 'base')),
    ).rejects.toThrow(/\/nonexistent\/base\.yaml/);
  });
});

describe('summariseDiffReport', () => {
  it('takes the largest impact and names the rules', () => {
    const diff = summariseDiffReport({
      changes: [
        { path: '#/info', kind: 'modified', property: 'description', impact: 'patch' },
        {
          path: '#/paths/~1a',
          kind: 'removed',
          impact: 'major',
          verdicts: [{ ruleId: 'path-removed', message: 'Path `/a` was removed.' }],
        },
      ],
    });
    expect(diff.bump).toBe('major');
    expect(diff.changes.map((c) => c.message)).toEqual([
      'modified description at #/info',
      'Path `/a` was removed. (path-removed)',
    ]);
  });

  it('refuses a report without a list of changes', () => {
    expect(() => summariseDiffReport({})).toThrow(/no "changes" list/);
  });
});

describe('diffSpecs on a component library', () => {
  /** @param {string} properties */
  const library = (properties) => `openapi: 3.1.0
info: { title: Shared, version: 1.0.0 }
paths: {}
components:
  schemas:
    Body:
      type: object
      properties:
${properties}
`;

  /** @param {string} base @param {string} revision */
  async function diffLibraries(base, revision) {
    const dir = await mkdtemp(join(tmpdir(), 'component-library-'));
    try {
      await writeFile(join(dir, 'base.yaml'), library(base));
      await writeFile(join(dir, 'revision.yaml'), library(revision));
      return await diffSpecs(join(dir, 'base.yaml'), join(dir, 'revision.yaml'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it('rates a removed property as major, though no operation uses it', async () => {
    const diff = await diffLibraries(
      '        code: { type: string }\n        source: { type: string }',
      '        code: { type: string }',
    );
    expect(diff.bump).toBe('major');
    expect(diff.changes.flatMap((c) => c.rules)).toEqual(['property-removed']);
  });

  it('rates a new optional property as minor', async () => {
    const diff = await diffLibraries(
      '        code: { type: string }',
      '        code: { type: string }\n        hint: { type: string }',
    );
    expect(diff.bump).toBe('minor');
  });
});
