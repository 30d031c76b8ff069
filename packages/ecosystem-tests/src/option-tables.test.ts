// The option tables of the READMEs are what the built declarations and their TSDoc say. After a
// change of an option type, `vitest run -u src/option-tables.test.ts` rewrites them.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRepoRoot } from '@partner-apis/release';
import * as prettier from 'prettier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadDeclarations,
  optionRows,
  optionTable,
  optionTablesOf,
  withOptionTables,
  type Declarations,
} from './option-tables.js';

const packagesDir = join(findRepoRoot(fileURLToPath(import.meta.url)), 'packages');
const DOCUMENTED = ['exposure', 'riskengineering', 'liability', 'approvals', 'core'];

describe.each(DOCUMENTED)('the option tables of packages/%s/README.md', (name) => {
  let declarations: Declarations;
  beforeAll(() => {
    declarations = loadDeclarations([join(packagesDir, name)]);
  });

  it('are what the option types and their TSDoc say', async () => {
    const path = join(packagesDir, name, 'README.md');
    const readme = await readFile(path, 'utf8');
    expect(optionTablesOf(readme).length).toBeGreaterThan(0);
    const generated = withOptionTables(readme, declarations, join(packagesDir, name));
    const config = (await prettier.resolveConfig(path)) ?? {};
    await expect(
      await prettier.format(generated, { ...config, filepath: path }),
    ).toMatchFileSnapshot(path);
  });
});

describe('the table of an option type', () => {
  let scratch: string;
  let dir: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'option-tables-'));
    dir = join(scratch, 'pkg');
    await mkdir(join(dir, 'dist'), { recursive: true });
    await writeFile(
      join(dir, 'dist', 'index.d.ts'),
      `/** How calls are retried. */
interface Retry {
  /** Attempts per call; 3 by default. */
  attempts?: number;
}
interface Keys {
  primary: string;
}
/** Both keys, the second optional. */
interface Credentials {
  /** Issued by the operator. */
  clientId: string;
  keys: Keys;
}
export interface Options {
  /** The address, \`a | b\`. */
  baseUrl: string;
  retry?: Retry;
  /** Who calls. */
  credentials: Credentials;
  /** Called once. */
  onCall?: (name: string) => void;
  undocumented?: number;
}
export interface Documented {
  /** The address. */
  baseUrl: string;
  retry?: Retry;
}
`,
    );
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('lists nested settings member by member, and names an option without TSDoc', () => {
    const declarations = loadDeclarations([dir]);
    expect(() => optionRows(declarations, dir, 'Options')).toThrow(
      'Options has options without TSDoc: undocumented',
    );
    expect(() => optionRows(declarations, dir, 'Missing')).toThrow('exports no type Missing');
    expect(optionRows(declarations, dir, 'Documented')).toEqual([
      { option: 'baseUrl', required: true, meaning: 'The address.' },
      { option: 'retry.attempts', required: false, meaning: 'Attempts per call; 3 by default.' },
    ]);
  });

  it('keeps an object whose members lack TSDoc in one row, with its own TSDoc', async () => {
    const source = join(dir, 'dist', 'index.d.ts');
    const text = await readFile(source, 'utf8');
    await writeFile(source, text.replace('  undocumented?: number;\n', ''));
    const rows = optionRows(loadDeclarations([dir]), dir, 'Options');
    expect(rows.map((row) => row.option)).toEqual([
      'baseUrl',
      'retry.attempts',
      'credentials',
      'onCall',
    ]);
    expect(optionTable(rows)).toBe(
      [
        '| option | meaning |',
        '| --- | --- |',
        '| `baseUrl` (required) | The address, `a \\| b`. |',
        '| `retry.attempts` | Attempts per call; 3 by default. |',
        '| `credentials` (required) | Who calls. |',
        '| `onCall` | Called once. |',
        '',
      ].join('\n'),
    );
  });
});
