// @ts-check
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import ts from 'typescript';
import { buildPlan, importRule } from './entries.js';

export { buildPlan, importRule } from './entries.js';

/**
 * @typedef {object} BuiltFile
 * @property {string} path relative to the package, e.g. `dist/index.js`
 * @property {number} bytes
 */

/**
 * Builds a package into `dist/`: one ESM file per script that its package.json `exports` and
 * `bin` name (code two entries share goes to one chunk beside them, so a class exists once), and
 * one declaration file per `types` condition. Dependencies stay imports; the package's own
 * sources are bundled; a package it imports without declaring it fails the build. The
 * sources read the package's own name and version as `__PACKAGE_NAME__` and
 * `__PACKAGE_VERSION__`, which the build replaces with those of package.json (see
 * `packageDefines`).
 *
 * @example
 * await buildPackage('/repo/packages/approvals');
 * // [{ path: 'dist/index.js', bytes: 24120 }, { path: 'dist/index.d.ts', bytes: 9012 }]
 * @param {string} packageDir
 * @returns {Promise<BuiltFile[]>} the files written, sourcemaps left out
 */
export async function buildPackage(packageDir) {
  const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8'));
  const plan = buildPlan(manifest);
  const rule = importRule(manifest);
  const dist = join(packageDir, 'dist');
  await rm(dist, { recursive: true, force: true });
  await bundleScripts(packageDir, plan.scripts, rule, manifest);
  if (plan.declarations.length > 0) await bundleDeclarations(packageDir, plan.declarations, rule);
  return listBuilt(packageDir);
}

/**
 * What the build replaces in a package's sources: `__PACKAGE_NAME__` and `__PACKAGE_VERSION__`
 * by the `name` and `version` of its package.json, so that a client can say which it is (in its
 * `User-Agent`) without reading package.json at run time. Sources run without a build (tests)
 * see neither; they ask `typeof __PACKAGE_VERSION__ === 'string'` first.
 *
 * @example
 * packageDefines({ name: '@partner-apis/approvals', version: '1.2.3' });
 * // { __PACKAGE_NAME__: '"@partner-apis/approvals"', __PACKAGE_VERSION__: '"1.2.3"' }
 * @param {{ name?: unknown, version?: unknown }} manifest
 * @returns {Record<string, string>}
 */
export function packageDefines(manifest) {
  /** @type {Record<string, string>} */
  const defines = {};
  if (typeof manifest.name === 'string') defines.__PACKAGE_NAME__ = JSON.stringify(manifest.name);
  if (typeof manifest.version === 'string') {
    defines.__PACKAGE_VERSION__ = JSON.stringify(manifest.version);
  }
  return defines;
}

/**
 * @param {string} packageDir
 * @param {import('./entries.js').BuildEntry[]} entries
 * @param {(specifier: string) => 'external' | 'undeclared'} rule
 * @param {{ name?: unknown, version?: unknown }} manifest
 */
async function bundleScripts(packageDir, entries, rule, manifest) {
  /** @type {esbuild.Plugin} */
  const dependencyImports = {
    name: 'dependency-imports',
    setup(build) {
      build.onResolve({ filter: /^[^./]|^#/ }, (args) => {
        if (rule(args.path) === 'external') return { path: args.path, external: true };
        return { errors: [{ text: undeclaredMessage(args.path) }] };
      });
    },
  };
  await esbuild.build({
    absWorkingDir: packageDir,
    entryPoints: entries.map((e) => ({ in: e.source, out: e.out })),
    outdir: 'dist',
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    tsconfig: 'tsconfig.build.json',
    sourcemap: 'linked',
    define: packageDefines(manifest),
    plugins: [dependencyImports],
    logLevel: 'warning',
  });
}

/**
 * Type-checks the package as `tsc -p tsconfig.build.json` would, writes its declarations to a
 * temporary folder, and bundles those into one `.d.ts` per entry.
 * @param {string} packageDir
 * @param {import('./entries.js').BuildEntry[]} entries
 * @param {(specifier: string) => 'external' | 'undeclared'} rule
 */
async function bundleDeclarations(packageDir, entries, rule) {
  const scratch = await mkdtemp(join(tmpdir(), 'partner-apis-build-'));
  try {
    emitDeclarations(packageDir, scratch);
    const bundle = await rollup({
      input: Object.fromEntries(entries.map((e) => [e.out, join(scratch, `${e.out}.d.ts`)])),
      plugins: [dts()],
      external: (id) => {
        if (/^[./]/.test(id) || /^[A-Za-z]:/.test(id)) return false;
        if (rule(id) === 'external') return true;
        throw new Error(undeclaredMessage(id));
      },
    });
    await bundle.write({
      dir: join(packageDir, 'dist'),
      format: 'es',
      entryFileNames: '[name].d.ts',
      // A chunk is named after its first module, `shared.d.ts`: drop the `.d` of that name.
      chunkFileNames: (chunk) => `${chunk.name.replace(/\.d$/, '')}-[hash].d.ts`,
    });
    await bundle.close();
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * @param {string} packageDir
 * @param {string} outDir
 */
function emitDeclarations(packageDir, outDir) {
  const configPath = join(packageDir, 'tsconfig.build.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {
      noEmit: false,
      declaration: true,
      emitDeclarationOnly: true,
      declarationMap: false,
      sourceMap: false,
      rootDir: join(packageDir, 'src'),
      outDir,
    },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(formatDiagnostics([d], packageDir));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const emitted = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  if (parsed.errors.length > 0 || diagnostics.length > 0) {
    throw new Error(formatDiagnostics([...parsed.errors, ...diagnostics], packageDir));
  }
}

/**
 * @param {readonly import('typescript').Diagnostic[]} diagnostics
 * @param {string} packageDir
 */
function formatDiagnostics(diagnostics, packageDir) {
  return ts.formatDiagnosticsWithColorAndContext(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => packageDir,
    getNewLine: () => '\n',
  });
}

/** @param {string} specifier */
function undeclaredMessage(specifier) {
  return `"${specifier}" is imported but is not in dependencies, peerDependencies or optionalDependencies: declare it (it stays an import) rather than copy it into the bundle`;
}

/**
 * @param {string} packageDir
 * @returns {Promise<BuiltFile[]>} every file in `dist/` but the sourcemaps
 */
async function listBuilt(packageDir) {
  const dist = join(packageDir, 'dist');
  const names = await readdir(dist, { recursive: true });
  const files = await Promise.all(
    names.map(async (name) => ({ path: `dist/${name}`, info: await stat(join(dist, name)) })),
  );
  return files
    .filter(({ path, info }) => info.isFile() && !path.endsWith('.map'))
    .map(({ path, info }) => ({ path, bytes: info.size }))
    .sort((a, b) => a.path.localeCompare(b.path));
}
