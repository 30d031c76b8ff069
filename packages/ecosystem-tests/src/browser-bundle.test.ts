// Each public package that is not for Node alone bundles for the browser with esbuild: no
// `node:` built-in is imported and no free `process` or `Buffer` is referenced, anywhere in the
// package or its dependencies.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRepoRoot, listPublishablePackages } from '@partner-apis/release';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * Node-only by design: the sandbox is a node:http server, transport-undici wraps undici, the
 * Redis fleet talks to Redis over TCP, verify reads and edits the spec files, and the command
 * line and the MCP server are programs of a shell.
 */
const NODE_ONLY = new Set([
  '@partner-apis/cli',
  '@partner-apis/mcp',
  '@partner-apis/sandbox',
  '@partner-apis/transport-undici',
  '@partner-apis/redis',
  '@partner-apis/verify',
]);
const root = findRepoRoot(fileURLToPath(import.meta.url));
const browserPackages = (await listPublishablePackages(root))
  .filter((pkg) => !NODE_ONLY.has(pkg.name))
  .map((pkg) => ({ name: pkg.name, entry: join(pkg.dir, pkg.manifest.exports['.'].default) }));
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

it('covers every service package', () => {
  expect(browserPackages.map((pkg) => pkg.name)).toEqual(
    expect.arrayContaining(
      ['approvals', 'exposure', 'liability', 'riskengineering'].map((s) => `@partner-apis/${s}`),
    ),
  );
});

describe.each(browserPackages)('$name for the browser', ({ entry }) => {
  it('bundles without a Node built-in or a Node global', async () => {
    const result = await browserBundle(entry);
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
