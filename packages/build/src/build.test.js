// @ts-check
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPackage, packageDefines } from './build.js';

/** @type {string[]} */
const made = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/**
 * Writes a small package into a temporary folder.
 * @param {Record<string, string>} files path → content
 */
async function fixturePackage(files) {
  const dir = await mkdtemp(join(tmpdir(), 'build-fixture-'));
  made.push(dir);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

const tsconfig = JSON.stringify({
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    declaration: true,
    skipLibCheck: true,
    types: [],
    rootDir: 'src',
    outDir: 'dist',
  },
  include: ['src'],
  exclude: ['src/**/*.test.ts'],
});

const manifest = {
  name: 'fixture',
  type: 'module',
  exports: {
    '.': { types: './dist/index.d.ts', default: './dist/index.js' },
    './extra': { types: './dist/extra.d.ts', default: './dist/extra.js' },
  },
  dependencies: { 'fixture-dependency': '^1.0.0' },
};

const dependencyManifest = {
  name: 'fixture-dependency',
  type: 'module',
  exports: { '.': { types: './index.d.ts', default: './index.js' } },
};

// A build type-checks and bundles: seconds on a quiet machine, far longer on a busy one.
describe('buildPackage', { timeout: 120_000 }, () => {
  it('writes one script and one declaration file per entry, shared code once, dependencies as imports', async () => {
    const dir = await fixturePackage({
      'package.json': JSON.stringify(manifest),
      'tsconfig.build.json': tsconfig,
      'src/index.ts': `export { Shared } from './shared.js';\nexport const one: number = 1;\n`,
      'src/extra.ts': `import { make } from 'fixture-dependency';\nexport { Shared } from './shared.js';\nexport const made: number = make();\n`,
      'node_modules/fixture-dependency/package.json': JSON.stringify(dependencyManifest),
      'node_modules/fixture-dependency/index.js': 'export const make = () => 1;\n',
      'node_modules/fixture-dependency/index.d.ts': 'export declare const make: () => number;\n',
      'src/shared.ts': `/** Shared by both entries. */\nexport class Shared { readonly kind = 'shared'; }\n`,
      'src/index.test.ts': `throw new Error('tests are not built');\n`,
    });
    await mkdir(join(dir, 'dist'));
    await writeFile(join(dir, 'dist/stale.js'), 'left from an earlier build');

    const built = await buildPackage(dir);

    const paths = built.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['dist/index.js', 'dist/extra.js']));
    expect(paths).toEqual(expect.arrayContaining(['dist/index.d.ts', 'dist/extra.d.ts']));
    expect(paths).not.toContain('dist/stale.js');
    const scripts = paths.filter((p) => p.endsWith('.js'));
    const withClass = [];
    for (const script of scripts) {
      if ((await readFile(join(dir, script), 'utf8')).includes('"shared"')) withClass.push(script);
    }
    expect(withClass).toHaveLength(1);
    const extra = await readFile(join(dir, 'dist/extra.js'), 'utf8');
    expect(extra).toMatch(/from "fixture-dependency"/);
    expect(extra).not.toMatch(/=> 1/);
    expect((await readdir(join(dir, 'dist'))).some((n) => n.includes('test'))).toBe(false);
    const types = await readFile(join(dir, 'dist/index.d.ts'), 'utf8');
    expect(types).toMatch(/one: number/);
    expect(types).not.toMatch(/from '\.\/shared\.js'/);
    expect(paths.filter((p) => /^dist\/shared-.+\.d\.ts$/.test(p))).toHaveLength(1);
  });

  it('refuses a package the manifest does not declare, naming it', async () => {
    const dir = await fixturePackage({
      'package.json': JSON.stringify({ ...manifest, exports: { '.': './dist/index.js' } }),
      'tsconfig.build.json': tsconfig,
      'src/index.ts': `export { default } from 'left-pad';\n`,
    });
    await expect(buildPackage(dir)).rejects.toThrow(
      /"left-pad" is imported but is not in dependencies/,
    );
  });

  it('fails on a type error, as tsc would', async () => {
    const dir = await fixturePackage({
      'package.json': JSON.stringify({
        ...manifest,
        exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      }),
      'tsconfig.build.json': tsconfig,
      'src/index.ts': `export const one: number = 'one';\n`,
    });
    await expect(buildPackage(dir)).rejects.toThrow(/not assignable to type 'number'/);
  });

  it("replaces __PACKAGE_NAME__ and __PACKAGE_VERSION__ with the package's own", async () => {
    const dir = await fixturePackage({
      'package.json': JSON.stringify({
        ...manifest,
        version: '1.2.3',
        exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      }),
      'tsconfig.build.json': tsconfig,
      'src/index.ts': [
        'declare const __PACKAGE_NAME__: string | undefined;',
        'declare const __PACKAGE_VERSION__: string | undefined;',
        "export const name = typeof __PACKAGE_NAME__ === 'string' ? __PACKAGE_NAME__ : 'source';",
        "export const version = typeof __PACKAGE_VERSION__ === 'string' ? __PACKAGE_VERSION__ : 'source';",
        '',
      ].join('\n'),
    });
    await buildPackage(dir);
    const built = await import(join(dir, 'dist/index.js'));
    expect({ name: built.name, version: built.version }).toEqual({
      name: 'fixture',
      version: '1.2.3',
    });
  });
});

describe('packageDefines', () => {
  it('defines only what package.json has', () => {
    expect(packageDefines({ name: '@partner-apis/approvals', version: '1.2.3' })).toEqual({
      __PACKAGE_NAME__: '"@partner-apis/approvals"',
      __PACKAGE_VERSION__: '"1.2.3"',
    });
    expect(packageDefines({ name: 'private-tool' })).toEqual({
      __PACKAGE_NAME__: '"private-tool"',
    });
  });
});
