// Each service package bundles for the browser with esbuild: no `node:` built-in is imported and
// no free `process` or `Buffer` is referenced, anywhere in the package or its dependencies.
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

const SERVICES = ['approvals', 'exposure', 'liability', 'riskengineering'] as const;
/** Node's globals that browsers lack; `globalThis.process?.…` is fine, a free `process` is not. */
const NODE_GLOBALS = ['process', 'Buffer', 'global', '__dirname', '__filename', 'require'];
const MARKER = 'NODE_GLOBAL_IN_BROWSER_BUNDLE_';

/** Fails the build on a Node built-in, naming the file that imports it. */
const refuseNodeBuiltins: Plugin = {
  name: 'refuse-node-builtins',
  setup(builder) {
    builder.onResolve({ filter: /^node:/ }, ({ path, importer }) => ({
      errors: [{ text: `${importer} imports the Node built-in ${path}` }],
    }));
  },
};

async function browserBundle(entry: string) {
  return build({
    stdin: { contents: `export * from '${entry}';`, resolveDir: import.meta.dirname },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    // esbuild replaces only free references to a global, never a property or a string.
    define: Object.fromEntries(NODE_GLOBALS.map((name) => [name, `${MARKER}${name}`])),
    plugins: [refuseNodeBuiltins],
    logLevel: 'silent',
  });
}

describe.each(SERVICES)('@partner-apis/%s for the browser', (service) => {
  it('bundles without a Node built-in or a Node global', async () => {
    const result = await browserBundle(`@partner-apis/${service}`);
    const code = result.outputFiles[0]?.text ?? '';
    expect(code.length).toBeGreaterThan(1000);
    // A use on a line that tests `typeof` the global first is guarded (openapi-fetch looks for
    // undici that way); any other is reported with its line, to find its source.
    const uses = code
      .split('\n')
      .filter((line) =>
        NODE_GLOBALS.some(
          (name) => line.includes(`${MARKER}${name}`) && !line.includes(`typeof ${MARKER}${name}`),
        ),
      );
    expect(uses.map((line) => line.replaceAll(MARKER, '').trim().slice(0, 160))).toEqual([]);
  });
});

it('names the Node built-in and the file that needs it', async () => {
  const failure = await browserBundle('node:crypto').catch((error: Error) => error);
  expect(failure).toBeInstanceOf(Error);
  expect(String(failure)).toMatch(/imports the Node built-in node:crypto/);
});

it('finds a free process reference', async () => {
  const result = await build({
    stdin: { contents: 'export const mode = process.env.MODE;' },
    write: false,
    format: 'esm',
    define: { process: `${MARKER}process` },
    logLevel: 'silent',
  });
  expect(result.outputFiles[0]?.text).toContain(`${MARKER}process`);
});
