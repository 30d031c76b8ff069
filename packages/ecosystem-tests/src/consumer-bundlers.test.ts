// A consumer's browser build with webpack 5 and with Vite, in a project outside the workspace
// where the optional peer `@opentelemetry/api` is not installed: tracing imports it only at run
// time, out of the bundlers' sight, so neither build fails or warns for want of it.
import { cp, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRepoRoot, listPublishablePackages } from '@partner-apis/release';
import { build as viteBuild } from 'vite';
import webpack from 'webpack';
import { afterAll, beforeAll, expect, it } from 'vitest';

const root = findRepoRoot(fileURLToPath(import.meta.url));
const CONSUMED = '@partner-apis/approvals';
const PEER = '@opentelemetry/api';

let app: string;

interface Manifest {
  dependencies?: Record<string, string>;
}

async function manifestOf(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/**
 * Copies `name` (a workspace package: its manifest and `dist`; any other: the whole folder)
 * into `app`'s node_modules, then its dependencies, as an install would: optional peers are
 * not dependencies, so `@opentelemetry/api` is not copied.
 */
async function install(
  name: string,
  from: string,
  workspace: ReadonlyMap<string, string>,
  done: Set<string>,
): Promise<void> {
  if (done.has(name)) return;
  done.add(name);
  const own = workspace.get(name);
  const source = own ?? (await realpath(join(from, 'node_modules', name)));
  const target = join(app, 'node_modules', name);
  await mkdir(target, { recursive: true });
  if (own === undefined) {
    await cp(source, target, { recursive: true, filter: (path) => !path.includes('/.bin') });
  } else {
    await cp(join(own, 'package.json'), join(target, 'package.json'));
    await cp(join(own, 'dist'), join(target, 'dist'), { recursive: true });
  }
  // A workspace package's dependencies are in its own node_modules; pnpm puts a third-party
  // package's beside it.
  const lookup = own ?? join(source, ...name.split('/').map(() => '..'), '..');
  for (const dependency of Object.keys((await manifestOf(source)).dependencies ?? {})) {
    await install(dependency, lookup, workspace, done);
  }
}

beforeAll(async () => {
  app = await mkdtemp(join(tmpdir(), 'consumer-bundlers-'));
  const workspace = new Map(
    (await listPublishablePackages(root)).map((pkg) => [pkg.name, pkg.dir] as const),
  );
  await install(CONSUMED, root, workspace, new Set());
  await mkdir(join(app, 'src'));
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '0.0.0', private: true, type: 'module' }),
  );
  // Tracing on, so the build holds the code that imports the peer.
  await writeFile(
    join(app, 'src', 'main.js'),
    [
      `import { createApprovalsClient } from '${CONSUMED}';`,
      'export const client = createApprovalsClient({',
      "  baseUrl: 'https://approvals.example.com/v1',",
      "  credentials: { clientId: 'id', clientSecret: 'secret' },",
      '  tracing: true,',
      '});',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  if (app !== undefined) await rm(app, { recursive: true, force: true });
});

it('builds a project without the optional peer: it is not installed there', async () => {
  const copied = join(app, 'node_modules', '@partner-apis', 'core', 'package.json');
  expect(JSON.stringify(await manifestOf(dirname(copied)))).toContain(PEER);
  await expect(readFile(join(app, 'node_modules', PEER, 'package.json'))).rejects.toThrow();
});

it('webpack 5 bundles it for the browser with no error and no warning', async () => {
  const compiler = webpack({
    context: app,
    mode: 'production',
    target: 'web',
    entry: './src/main.js',
    output: { path: join(app, 'webpack-dist'), filename: 'main.js', library: { type: 'module' } },
    experiments: { outputModule: true },
    optimization: { minimize: false },
    infrastructureLogging: { level: 'none' },
  });
  const stats = await new Promise<webpack.Stats>((resolve, reject) => {
    compiler.run((error, result) => {
      compiler.close(() => undefined);
      if (error !== null && error !== undefined) reject(error);
      else resolve(result as webpack.Stats);
    });
  });
  const { errors = [], warnings = [] } = stats.toJson({ all: false, errors: true, warnings: true });
  expect(errors.map((e) => e.message)).toEqual([]);
  expect(warnings.map((w) => w.message)).toEqual([]);
  const bundle = await readFile(join(app, 'webpack-dist', 'main.js'), 'utf8');
  expect(bundle).toContain('createApprovalsClient');
});

it('Vite bundles it for the browser with no error and no warning', async () => {
  const warnings: string[] = [];
  await viteBuild({
    configFile: false,
    root: app,
    customLogger: {
      info: () => undefined,
      warn: (message) => warnings.push(message),
      warnOnce: (message) => warnings.push(message),
      error: (message) => warnings.push(message),
      clearScreen: () => undefined,
      hasErrorLogged: () => false,
      hasWarned: false,
    },
    build: {
      outDir: join(app, 'vite-dist'),
      minify: false,
      lib: { entry: join(app, 'src', 'main.js'), formats: ['es'], fileName: 'main' },
    },
  });
  expect(warnings).toEqual([]);
  const bundle = await readFile(join(app, 'vite-dist', 'main.js'), 'utf8');
  expect(bundle).toContain('createApprovalsClient');
});
