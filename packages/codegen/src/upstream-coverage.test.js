// @ts-check
// docs/upstream-coverage.md traces every upstream statement to the specs; this keeps its
// references honest: every spec JSON Pointer resolves and every named test exists.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseYaml } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const COVERAGE = join(repoRoot, 'docs/upstream-coverage.md');

/**
 * The coverage rows: every table row whose first cell is an ID such as `E12`.
 * @param {string} markdown
 */
function parseCoverage(markdown) {
  return markdown
    .split('\n')
    .filter((line) => /^\|\s*[A-Z]\d+\s*\|/.test(line))
    .map((line) => {
      const cells = line
        .slice(1, line.trimEnd().length - 1)
        .split('|')
        .map((c) => c.trim());
      const [id = '', section = '', statement = '', encodedIn = ''] = cells;
      const code = [...encodedIn.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
      return {
        id,
        section,
        statement,
        encodedIn,
        pointers: code.filter((c) => /^specs\/[^#]+#/.test(c)),
        tests: code.filter((c) => c.startsWith('test: ')).map((c) => c.slice('test: '.length)),
      };
    });
}

/**
 * Resolves `specs/x/openapi.yaml#/a/b` in the spec as written; returns whether it exists.
 * @param {string} reference
 * @param {(file: string) => unknown} load
 */
function resolvesIn(reference, load) {
  const [file = '', pointer = ''] = reference.split('#');
  if (!existsSync(join(repoRoot, file))) return false;
  /** @type {any} */
  let node = load(file);
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/');
  for (const raw of tokens) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return false;
    node = node[token];
  }
  return true;
}

/** @type {Map<string, unknown>} */
const specs = new Map();
/** @param {string} file */
const loadSpec = (file) => {
  if (!specs.has(file)) specs.set(file, parseYaml(readFileSync(join(repoRoot, file), 'utf8')));
  return specs.get(file);
};

const rows = parseCoverage(readFileSync(COVERAGE, 'utf8'));

describe('docs/upstream-coverage.md', () => {
  it('has rows for all three documents, numbered in order without gaps', () => {
    for (const prefix of ['E', 'L', 'P']) {
      const ids = rows.filter((r) => r.id.startsWith(prefix)).map((r) => r.id);
      expect(ids.length).toBeGreaterThan(40);
      expect(ids).toEqual(ids.map((_, i) => `${prefix}${i + 1}`));
    }
  });

  it('says for every statement where it is encoded or why not', () => {
    const empty = rows.filter((r) => r.statement === '' || r.encodedIn === '').map((r) => r.id);
    expect(empty).toEqual([]);
  });

  it('names only spec JSON Pointers that resolve', () => {
    const pointers = rows.flatMap((r) => r.pointers.map((p) => `${r.id}: ${p}`));
    expect(pointers.length).toBeGreaterThan(200);
    const broken = pointers.filter((p) => !resolvesIn(p.slice(p.indexOf(' ') + 1), loadSpec));
    expect(broken).toEqual([]);
  });

  it('names only tests that exist', () => {
    const missing = rows
      .flatMap((r) => r.tests.map((t) => ({ id: r.id, test: t })))
      .filter(({ test }) => {
        const [file = '', title = ''] = test.split(' › ');
        const path = join(repoRoot, file);
        return !existsSync(path) || !readFileSync(path, 'utf8').includes(title);
      })
      .map(({ id, test }) => `${id}: ${test}`);
    expect(missing).toEqual([]);
  });
});

describe('coverage checker', () => {
  const load = () => ({ paths: { '/quotes': { post: {} } }, 'a~b': 1 });

  it('resolves escaped pointers and refuses missing ones', () => {
    expect(resolvesIn('specs/liability/openapi.yaml#/paths/~1quotes/post', load)).toBe(true);
    expect(resolvesIn('specs/liability/openapi.yaml#/a~0b', load)).toBe(true);
    expect(resolvesIn('specs/liability/openapi.yaml#/paths/~1quotes/get', load)).toBe(false);
    expect(resolvesIn('specs/nowhere/openapi.yaml#/paths', load)).toBe(false);
  });

  it('reads IDs, pointers and tests from a row', () => {
    const [row] = parseCoverage(
      '| L3  | Errors | 400. | `specs/liability/openapi.yaml#/x`; `test: a.test.ts › b`; planned |',
    );
    expect(row).toMatchObject({
      id: 'L3',
      pointers: ['specs/liability/openapi.yaml#/x'],
      tests: ['a.test.ts › b'],
    });
  });
});
