import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  findRepoRoot,
  listPublishablePackages,
  npmEnvironment,
  packPackage,
  runNpm,
  startLocalRegistry,
} from '@partner-apis/release';

const root = findRepoRoot(fileURLToPath(import.meta.url));

/** A local registry holding one workspace package and what it depends on. */
export interface LocalRegistryInstall {
  /** A scratch folder of its own, removed by `close()`: put the projects in it. */
  scratch: string;
  /** Runs npm in `cwd` with a cache of its own (a project's `.npmrc` names the registry). */
  npm(args: readonly string[], cwd: string): Promise<string>;
  /** Points the project in `dir` at the registry and installs `packages` there with npm. */
  install(dir: string, packages: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** `name` and the workspace packages it depends on, transitively: what its install needs. */
async function withWorkspaceDependencies(name: string) {
  const all = new Map((await listPublishablePackages(root)).map((pkg) => [pkg.name, pkg]));
  const needed = new Set<string>();
  const visit = (next: string) => {
    const pkg = all.get(next);
    if (pkg === undefined || needed.has(next)) return;
    needed.add(next);
    for (const dependency of Object.keys(pkg.manifest.dependencies ?? {})) visit(dependency);
  };
  visit(name);
  return [...needed].map((each) => all.get(each)).filter((pkg) => pkg !== undefined);
}

/**
 * Packs `name` and the workspace packages it depends on (built beforehand, as `pnpm check`
 * does), publishes them to a verdaccio on 127.0.0.1 (the helpers of `@partner-apis/release`),
 * and returns what installs from it as a user would: npm, the registry for `@partner-apis`, the
 * npm registry for the rest. Only 127.0.0.1 and the npm registry are contacted.
 */
export async function publishToLocalRegistry(name: string): Promise<LocalRegistryInstall> {
  const scratch = await mkdtemp(join(tmpdir(), 'local-install-'));
  const registry = await startLocalRegistry(join(scratch, 'registry')).catch(async (error) => {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  });
  const close = async () => {
    await registry.close();
    await rm(scratch, { recursive: true, force: true });
  };
  const env = npmEnvironment(join(scratch, 'npm-cache'));
  const npm = (args: readonly string[], cwd: string) => runNpm([...args], { cwd, env });
  try {
    const packs = join(scratch, 'packs');
    await mkdir(packs);
    const npmrc = join(scratch, 'publish.npmrc');
    await writeFile(npmrc, `//${new URL(registry.url).host}/:_authToken=${registry.token}\n`);
    const packages = await withWorkspaceDependencies(name);
    // Three at a time; every lane finishes before this does, so no npm outlives the registry.
    const lanes = [0, 1, 2].map(async (lane) => {
      for (const pkg of packages.filter((_, index) => index % 3 === lane)) {
        const { tarball } = await packPackage(pkg.dir, packs);
        await runNpm(['publish', tarball, '--registry', registry.url, '--ignore-scripts'], {
          cwd: scratch,
          env: { ...env, npm_config_userconfig: npmrc },
        });
      }
    });
    const failed = (await Promise.allSettled(lanes)).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (error) {
    await close();
    throw error;
  }
  return {
    scratch,
    npm,
    async install(dir, names) {
      await writeFile(join(dir, '.npmrc'), `@partner-apis:registry=${registry.url}\n`);
      await npm(['install', ...names, '--ignore-scripts'], dir);
    },
    close,
  };
}
