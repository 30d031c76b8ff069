import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';
import { readmeExample } from './readme-example.js';
import { runChild, runtimeBinary, type RunOutput } from './runtimes.js';
import { workerdConfig } from './workerd-config.js';

const here = dirname(fileURLToPath(import.meta.url));
const HARNESS = join(here, 'readme-harness.ts');

/** Where a README example runs: Node as ESM or through `require`, Bun, Deno or workerd. */
export type Target = 'node-esm' | 'node-cjs' | 'bun' | 'deno' | 'workerd';

/** The entry of a script runtime: the sandbox comes in an environment variable. */
function scriptEntry(extension: string): string {
  return `import { runReadmeTests, useSandbox } from './harness${extension}';
import './example${extension}';

const env = globalThis.Deno?.env.toObject() ?? globalThis.process.env;
useSandbox(JSON.parse(env.PARTNER_APIS_SANDBOX));
const { failed } = await runReadmeTests();
if (failed > 0) throw new Error(failed + ' README test(s) failed');
`;
}

/** The CommonJS entry: everything through `require`, which loads the ESM packages. */
const CJS_ENTRY = `const { runReadmeTests, useSandbox } = require('./harness.cjs');
require('./example.cjs');

useSandbox(JSON.parse(process.env.PARTNER_APIS_SANDBOX));
runReadmeTests().then(({ failed }) => {
  if (failed > 0) process.exitCode = 1;
});
`;

/** The worker's entry: runs the example's tests when `workerd test` calls it. */
const WORKER_ENTRY = `import { runReadmeTests, useSandbox } from './harness.ts';
import './example.ts';

export default {
  async test(_controller, env) {
    useSandbox(JSON.parse(env.SANDBOX));
    const { failed } = await runReadmeTests();
    if (failed > 0) throw new Error(failed + ' README test(s) failed');
  },
};
`;

/** TypeScript to JavaScript of one module, as ESM or CommonJS, without bundling. */
async function toJavaScript(code: string, format: 'esm' | 'cjs'): Promise<string> {
  return (await transform(code, { loader: 'ts', format, target: 'es2022' })).code;
}

/**
 * Writes the README example of `readmePath` into `dir` for `target` (with the harness and an
 * entry), runs it there against the sandbox described by `sandboxJson`, and returns what it
 * printed. `dir` must resolve the packages the example imports (a `node_modules` of its own or
 * above it). Passing runs print `N passed, 0 failed` and exit with 0.
 */
export async function runReadmeExample(
  target: Target,
  dir: string,
  readmePath: string,
  sandboxJson: string,
): Promise<RunOutput> {
  const env = {
    ...process.env,
    PARTNER_APIS_SANDBOX: sandboxJson,
    // Nothing but 127.0.0.1 is contacted: no update checks, no telemetry, a cache of the run's own.
    DENO_NO_UPDATE_CHECK: '1',
    DENO_DIR: join(dir, '.deno'),
    DO_NOT_TRACK: '1',
  };
  if (target === 'node-esm' || target === 'node-cjs') {
    const format = target === 'node-esm' ? 'esm' : 'cjs';
    const extension = format === 'esm' ? '.mjs' : '.cjs';
    const example = await readmeExample(readmePath, `./harness${extension}`);
    const harness = await readFile(HARNESS, 'utf8');
    await writeFile(join(dir, `example${extension}`), await toJavaScript(example, format));
    await writeFile(join(dir, `harness${extension}`), await toJavaScript(harness, format));
    const entry = format === 'esm' ? scriptEntry('.mjs') : CJS_ENTRY;
    await writeFile(join(dir, `entry${extension}`), entry);
    return runChild(process.execPath, [`entry${extension}`], { cwd: dir, env });
  }
  await copyFile(HARNESS, join(dir, 'harness.ts'));
  await writeFile(join(dir, 'example.ts'), await readmeExample(readmePath, './harness.ts'));
  const binary = await runtimeBinary(target);
  if (target === 'bun') {
    await writeFile(join(dir, 'entry.ts'), scriptEntry('.ts'));
    return runChild(binary, ['run', 'entry.ts'], { cwd: dir, env });
  }
  if (target === 'deno') {
    await writeFile(join(dir, 'entry.ts'), scriptEntry('.ts'));
    const allow = ['--allow-net=127.0.0.1', '--allow-env', '--allow-read'];
    return runChild(binary, ['run', '--no-prompt', ...allow, 'entry.ts'], { cwd: dir, env });
  }
  // workerd runs bundles, as wrangler (esbuild) would build one: the workerd, worker and
  // browser conditions. Where tracing's optional peer is not installed, it stays out.
  await writeFile(join(dir, 'worker.ts'), WORKER_ENTRY);
  await build({
    entryPoints: [join(dir, 'worker.ts')],
    outfile: join(dir, 'worker.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    logLevel: 'error',
  });
  await writeFile(join(dir, 'config.capnp'), workerdConfig('worker.js', sandboxJson));
  return runChild(binary, ['test', 'config.capnp'], { cwd: dir });
}
