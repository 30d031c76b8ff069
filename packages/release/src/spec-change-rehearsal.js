// @ts-check
// Rehearses an upstream change the way a maintainer ships it: a spec edit in a copy of the
// workspace, `generate`, `build`, and a consumer compiled and run against the rebuilt packages.
// What it proves: the change reaches users with a spec edit alone, no hand-written code.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';

const run = promisify(execFile);

/** The repository this file belongs to. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The packages a service package needs to build, in build order. */
const RUNTIME_PACKAGES = ['errors', 'auth', 'core'];

/**
 * Makes `dir` an ESM project whose `node_modules/@partner-apis` links the packages `names` of
 * `packagesDir`, as an install of them would.
 *
 * @param {string} dir
 * @param {string} packagesDir
 * @param {readonly string[]} names
 */
export async function linkConsumer(dir, packagesDir, names) {
  await mkdir(join(dir, 'node_modules/@partner-apis'), { recursive: true });
  for (const name of names) {
    await symlink(join(packagesDir, name), join(dir, 'node_modules/@partner-apis', name), 'dir');
  }
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
}

/**
 * @typedef {object} RehearsalWorkspace
 * @property {string} root the copy
 * @property {(spec: string, edit: (document: import('yaml').Document) => void) => Promise<void>} editSpec
 *   edits `specs/<spec>/openapi.yaml` of the copy
 * @property {(pkg: string) => Promise<void>} regenerate runs codegen in `packages/<pkg>` of the copy
 * @property {(pkg: string) => Promise<void>} build runs the package's own build script (an app's
 *   with `apps/<name>`)
 * @property {(source: string, packages?: readonly string[]) => Promise<string>} runConsumer
 *   compiles `source` as a consumer of the copy's packages (and `packages`, e.g. a new
 *   service's) with `tsc` (strict) and runs it with node; resolves to its stdout
 * @property {(args: readonly string[]) => Promise<string>} run runs a command of the
 *   repository's in the copy's root, e.g. `['packages/codegen/src/new-service-cli.js', …]`
 * @property {(pkg: string) => Promise<void>} install links the dependencies of a package made in
 *   the copy (`packages/<pkg>`), as `pnpm install` would: workspace ones to the copy's packages,
 *   the others to the repository's installed ones
 * @property {() => Promise<void>} remove
 */

/**
 * Copies the specs, the codegen, the runtime packages and `services` into a temporary
 * workspace that shares the repository's installed dependencies. Built output of the runtime
 * packages comes along; the service packages are rebuilt by `build`.
 *
 * @param {string[]} services package folders, e.g. `['exposure', 'liability']`
 * @param {string[]} [apps] app folders, e.g. `['cli']`; `build('apps/cli')` builds one
 * @returns {Promise<RehearsalWorkspace>}
 */
export async function copyWorkspace(services, apps = []) {
  const root = await mkdtemp(join(tmpdir(), 'spec-change-rehearsal-'));
  const copy = (/** @type {string} */ path) =>
    cp(join(REPOSITORY_ROOT, path), join(root, path), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (source) => !/[\\/](\.turbo|\.vite|\.vite-temp)([\\/]|$)/.test(source),
    });
  for (const file of [
    'package.json',
    'pnpm-workspace.yaml',
    'tsconfig.base.json',
    'LICENSE',
    'specs',
  ]) {
    await copy(file);
  }
  for (const pkg of ['codegen', 'spec-model', 'build', ...RUNTIME_PACKAGES, ...services]) {
    await copy(`packages/${pkg}`);
  }
  for (const app of apps) await copy(`apps/${app}`);
  // Every package links its dependencies through the root's node_modules, as pnpm laid it out.
  await symlink(join(REPOSITORY_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  const codegen = join(root, 'packages/codegen/src/cli.js');
  const tsc = join(REPOSITORY_ROOT, 'node_modules/typescript/bin/tsc');

  return {
    root,
    async editSpec(spec, edit) {
      const file = join(root, 'specs', spec, 'openapi.yaml');
      const document = parseDocument(await readFile(file, 'utf8'));
      edit(document);
      await writeFile(file, document.toString());
    },
    async regenerate(pkg) {
      await run(process.execPath, [codegen], { cwd: join(root, 'packages', pkg) });
    },
    async build(pkg) {
      const dir = join(root, pkg.startsWith('apps/') ? pkg : join('packages', pkg));
      const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
      const script = String(manifest.scripts?.build ?? '');
      await run('sh', ['-c', script], {
        cwd: dir,
        env: { ...process.env, PATH: `${join(dir, 'node_modules/.bin')}:${process.env.PATH}` },
      });
    },
    async run(args) {
      const env = { ...process.env, INIT_CWD: root };
      const { stdout } = await run(process.execPath, [...args], { cwd: root, env });
      return stdout;
    },
    async install(pkg) {
      const dir = join(root, 'packages', pkg);
      const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
      const installed = createRequire(join(REPOSITORY_ROOT, 'packages/core/package.json'));
      await mkdir(join(dir, 'node_modules/.bin'), { recursive: true });
      for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) {
        const own = name.startsWith('@partner-apis/')
          ? join(root, 'packages', name.slice(14))
          : undefined;
        const target = own ?? dirname(installed.resolve(`${name}/package.json`));
        await mkdir(dirname(join(dir, 'node_modules', name)), { recursive: true });
        await symlink(target, join(dir, 'node_modules', name), 'dir');
        const bins = JSON.parse(await readFile(join(target, 'package.json'), 'utf8')).bin ?? {};
        for (const [bin, file] of Object.entries(typeof bins === 'string' ? {} : bins)) {
          await symlink(join(target, String(file)), join(dir, 'node_modules/.bin', bin));
        }
      }
    },
    async runConsumer(source, packages = []) {
      const dir = join(root, 'consumer');
      await linkConsumer(dir, join(root, 'packages'), [
        ...RUNTIME_PACKAGES,
        ...services,
        ...packages,
      ]);
      await writeFile(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          extends: '../tsconfig.base.json',
          compilerOptions: {
            outDir: 'dist',
            rootDir: '.',
            lib: ['ES2023', 'DOM'],
            types: [],
            declaration: false,
            declarationMap: false,
            sourceMap: false,
          },
          include: ['consumer.ts'],
        }),
      );
      await writeFile(join(dir, 'consumer.ts'), source);
      try {
        await run(process.execPath, [tsc, '-p', dir]);
      } catch (error) {
        const failure = /** @type {{ stdout?: string }} */ (error);
        throw new Error(`the consumer does not compile:\n${failure.stdout ?? String(error)}`, {
          cause: error,
        });
      }
      const { stdout } = await run(process.execPath, [join(dir, 'dist/consumer.js')], {
        cwd: dir,
      });
      return stdout;
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
