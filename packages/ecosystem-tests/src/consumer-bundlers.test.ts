// A consumer's production builds: @partner-apis/exposure is installed from a local registry into
// a fresh project (where the optional peer `@opentelemetry/api` is not installed), bundled for
// the browser with each bundler's production defaults, minifier included (Parcel's resolver
// ignores `exports`: it reads the packages' subpath folders), and each bundle holds the fetch
// transport and is run on Node against the sandbox: one call succeeds, and the errors keep their
// class, `name`, `code` and `isApiError` (terser's `passes: 2`, webpack's default, once broke
// every one).
import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terserModule from '@rollup/plugin-terser';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { build as esbuild } from 'esbuild';
import { rollup } from 'rollup';
import { build as viteBuild, type InlineConfig, type Logger } from 'vite';
import webpack from 'webpack';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { publishToLocalRegistry, type LocalRegistryInstall } from './local-install.js';
import { runChild } from './runtimes.js';

const run = promisify(execFile);
// Its types are an ES default export in a package typed as CommonJS: TypeScript sees the module
// where Node gives the function.
const terser = terserModule as unknown as typeof terserModule.default;
const require = createRequire(import.meta.url);
const CONSUMED = '@partner-apis/exposure';
const PEER = '@opentelemetry/api';

let published: LocalRegistryInstall | undefined;
let sandbox: Sandbox | undefined;
let app: string;

// What a user writes: a client, a call, and error handling by class. No top-level await, as
// esbuild's and Parcel's default browser output is a script.
const ENTRY = `import {
  ApiError,
  ConfigurationError,
  NotFoundError,
  createExposureClient,
  isApiError,
} from '${CONSUMED}';

async function main({ urls, credentials }) {
  const report = {};
  try {
    createExposureClient({ baseUrl: 'ftp://exposure.example.com', tokenUrl: urls.tokenUrl, credentials: credentials.exposure });
  } catch (error) {
    report.configuration = { instanceOf: error instanceof ConfigurationError, name: error.name, option: error.option };
  }
  const options = { baseUrl: urls.exposure, tokenUrl: urls.tokenUrl, credentials: credentials.exposure };
  // Tracing on, so the bundle holds the code that imports the optional peer; never called, as
  // the peer is not installed.
  report.traced = typeof createExposureClient({ ...options, tracing: true }).locations.page;
  const exposure = createExposureClient(options);
  try {
    await exposure.locations.page({ limit: 1 });
  } catch (error) {
    report.api = {
      notFound: error instanceof NotFoundError,
      apiError: error instanceof ApiError,
      isApiError: isApiError(error),
      name: error.name,
      status: error.status,
      code: error.code,
    };
  }
  report.page = (await exposure.locations.page({ limit: 2 })).map((location) => location.locationId);
  return report;
}

globalThis.REPORT = main(globalThis.SANDBOX);
`;

// Runs a bundle on Node: the sandbox's addresses in, the entry's report out. The document is
// what Vite's module-preload polyfill asks of a browser that preloads modules.
const RUNNER = `import { pathToFileURL } from 'node:url';

globalThis.document = { createElement: () => ({ relList: { supports: () => true } }) };
globalThis.SANDBOX = JSON.parse(process.env.PARTNER_APIS_SANDBOX);
await import(pathToFileURL(process.argv[2]).href);
console.log('REPORT ' + JSON.stringify(await globalThis.REPORT));
`;

const EXPECTED = {
  traced: 'function',
  configuration: { instanceOf: true, name: 'ConfigurationError', option: 'baseUrl' },
  api: {
    notFound: true,
    apiError: true,
    isApiError: true,
    name: 'NotFoundError',
    status: 404,
    code: 'not_found',
  },
  page: ['LOC-0000001', 'LOC-0000002'],
};

beforeAll(async () => {
  published = await publishToLocalRegistry(CONSUMED);
  app = join(published.scratch, 'app');
  await mkdir(join(app, 'src'), { recursive: true });
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }),
  );
  await published.install(app, [CONSUMED]);
  await writeFile(join(app, 'src', 'index.js'), ENTRY);
  await writeFile(join(app, 'run.mjs'), RUNNER);
  sandbox = await startSandbox();
}, 300_000);

afterAll(async () => {
  await sandbox?.close();
  await published?.close();
}, 30_000);

/**
 * Runs the bundle at `file` (relative to the project) and returns the entry's report. A browser
 * bundle holds core's fetch transport: its Node one is the only code that imports `node:http`.
 */
async function runBundle(file: string): Promise<unknown> {
  if (sandbox === undefined) throw new Error('the sandbox did not start');
  expect(await readFile(join(app, file), 'utf8')).not.toMatch(/node:(?:http|https|zlib)/);
  // The first listing request is answered 404 with the route's error body; the next normally.
  sandbox.fault('exposure.listLocations', { sequence: [404] });
  const { urls, credentials } = sandbox;
  const env = { ...process.env, PARTNER_APIS_SANDBOX: JSON.stringify({ urls, credentials }) };
  const { code, output } = await runChild(process.execPath, ['run.mjs', file], { cwd: app, env });
  // The end of what it printed: a minified line is long.
  expect(code, output.slice(-2_000)).toBe(0);
  const line = output.split('\n').find((each) => each.startsWith('REPORT '));
  expect(line, output.slice(-2_000)).toBeDefined();
  return JSON.parse(line?.slice('REPORT '.length) ?? 'null');
}

/** A Vite logger that keeps warnings and errors. */
function collectingLogger(into: string[]): Logger {
  return {
    info: () => undefined,
    warn: (message) => into.push(message),
    warnOnce: (message) => into.push(message),
    error: (message) => into.push(message),
    clearScreen: () => undefined,
    hasErrorLogged: () => false,
    hasWarned: false,
  };
}

/** Builds the project's `index.html` with Vite and returns the path of its one script. */
async function viteAppBuild(outDir: string, build: InlineConfig['build'] = {}): Promise<string> {
  await writeFile(
    join(app, 'index.html'),
    '<!doctype html><script type="module" src="/src/index.js"></script>\n',
  );
  const warnings: string[] = [];
  await viteBuild({
    configFile: false,
    root: app,
    customLogger: collectingLogger(warnings),
    build: { ...build, outDir: join(app, outDir) },
  });
  // Rolldown's note on slow plugins (terser) says nothing of the code.
  expect(warnings.filter((w) => !w.includes('[PLUGIN_TIMINGS]'))).toEqual([]);
  const scripts = (await readdir(join(app, outDir, 'assets'))).filter((f) => f.endsWith('.js'));
  expect(scripts).toHaveLength(1);
  return join(outDir, 'assets', scripts[0] ?? '');
}

it('installs without the optional peer, as npm does', async () => {
  const core = join(app, 'node_modules', '@partner-apis', 'core', 'package.json');
  expect(await readFile(core, 'utf8')).toContain(PEER);
  await expect(readFile(join(app, 'node_modules', PEER, 'package.json'))).rejects.toThrow();
});

it('webpack 5, mode production (terser, passes: 2): builds clean, calls, keeps the errors', async () => {
  const compiler = webpack({
    context: app,
    mode: 'production',
    output: { path: join(app, 'webpack-dist') },
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
  expect(await runBundle('webpack-dist/main.js')).toEqual(EXPECTED);
});

it('Vite build (its default minifier): builds clean, calls, keeps the errors', async () => {
  expect(await runBundle(await viteAppBuild('vite-dist'))).toEqual(EXPECTED);
});

it('Vite build with terser, passes: 2: builds clean, calls, keeps the errors', async () => {
  const build = { minify: 'terser', terserOptions: { compress: { passes: 2 } } } as const;
  expect(await runBundle(await viteAppBuild('vite-terser-dist', build))).toEqual(EXPECTED);
});

it('Rollup with node-resolve and terser: builds clean, calls, keeps the errors', async () => {
  const warnings: string[] = [];
  const bundle = await rollup({
    input: join(app, 'src', 'index.js'),
    plugins: [nodeResolve(), terser()],
    onwarn: (warning) => warnings.push(warning.message),
  });
  await bundle.write({ file: join(app, 'rollup-dist', 'index.js') });
  await bundle.close();
  expect(warnings).toEqual([]);
  expect(await runBundle('rollup-dist/index.js')).toEqual(EXPECTED);
});

it('esbuild --bundle --minify: builds clean, calls, keeps the errors', async () => {
  const result = await esbuild({
    entryPoints: [join(app, 'src', 'index.js')],
    bundle: true,
    minify: true,
    outfile: join(app, 'esbuild-dist', 'index.js'),
    logLevel: 'silent',
  });
  expect([...result.errors, ...result.warnings].map((m) => m.text)).toEqual([]);
  expect(await runBundle('esbuild-dist/index.js')).toEqual(EXPECTED);
});

it('Parcel 2, its default config: builds clean, calls, keeps the errors', async () => {
  const parcel = join(dirname(require.resolve('parcel/package.json')), 'lib', 'bin.js');
  const { stderr } = await run(
    process.execPath,
    [parcel, 'build', 'src/index.js', '--dist-dir', 'parcel-dist', '--no-autoinstall'],
    { cwd: app, timeout: 150_000, env: { ...process.env, NO_COLOR: '1' } },
  );
  expect(stderr).toBe('');
  expect(await runBundle('parcel-dist/index.js')).toEqual(EXPECTED);
});
