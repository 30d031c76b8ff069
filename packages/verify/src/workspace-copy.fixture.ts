import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A copy of the workspace's specs and packages, sharing its installed dependencies. */
export interface WorkspaceCopy {
  root: string;
  specs: string;
  /** `pnpm generate` of one package: its codegen. */
  regenerate(pkg: string): Promise<void>;
  /** `pnpm build` of one package: its own build script. */
  build(pkg: string): Promise<void>;
  /** Runs an ES module that imports the copy's packages by name; resolves to its stdout. */
  runConsumer(source: string, args: readonly string[]): Promise<string>;
  remove(): Promise<void>;
}

/**
 * Copies the specs, the generator, the build and `packages` into a temporary workspace, as
 * `packages/release/src/spec-change-rehearsal.js` does: each package's links to its workspace
 * dependencies are relative, so they reach the copies.
 */
export async function copyWorkspace(packages: readonly string[]): Promise<WorkspaceCopy> {
  const root = await mkdtemp(join(tmpdir(), 'verify-full-loop-'));
  const copy = (path: string) =>
    cp(join(ROOT, path), join(root, path), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (source) => !/[\\/](\.turbo|\.vite|\.vite-temp)([\\/]|$)/.test(source),
    });
  for (const file of ['package.json', 'pnpm-workspace.yaml', 'tsconfig.base.json', 'specs'])
    await copy(file);
  // The generator's own workspace packages (its operation model) come along with it.
  const generator = JSON.parse(
    await readFile(join(ROOT, 'packages/codegen/package.json'), 'utf8'),
  ) as { dependencies?: Record<string, string> };
  const itsOwn = Object.keys(generator.dependencies ?? {})
    .filter((name) => name.startsWith('@partner-apis/'))
    .map((name) => name.slice('@partner-apis/'.length));
  for (const pkg of new Set(['codegen', 'build', ...itsOwn, ...packages]))
    await copy(`packages/${pkg}`);
  await symlink(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  return {
    root,
    specs: join(root, 'specs'),
    async regenerate(pkg) {
      await run(process.execPath, [join(root, 'packages/codegen/src/cli.js')], {
        cwd: join(root, 'packages', pkg),
      });
    },
    async build(pkg) {
      const dir = join(root, 'packages', pkg);
      const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
        scripts: { build: string };
      };
      await run('sh', ['-c', manifest.scripts.build], {
        cwd: dir,
        env: { ...process.env, PATH: `${join(dir, 'node_modules/.bin')}:${process.env.PATH}` },
      });
    },
    async runConsumer(source, args) {
      const dir = join(root, 'consumer');
      await mkdir(join(dir, 'node_modules/@partner-apis'), { recursive: true });
      for (const pkg of packages) {
        await symlink(
          join(root, 'packages', pkg),
          join(dir, 'node_modules/@partner-apis', pkg),
          'dir',
        );
      }
      await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
      await writeFile(join(dir, 'consumer.js'), source);
      const { stdout } = await run(process.execPath, [join(dir, 'consumer.js'), ...args], {
        cwd: dir,
      });
      return stdout;
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
