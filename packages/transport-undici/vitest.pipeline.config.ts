import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The pipeline conformance run: the test suites of the request pipeline and of the service
// clients, with this transport in place of the global fetch. The transport is kept only while
// every one of them passes through it.
const setup = fileURLToPath(new URL('./src/undici-global-fetch.setup.ts', import.meta.url));
// In Node, core sends over node:http unless given a `fetch`; here its default is the sender this
// transport's fetch offers (what a client given `fetch: createUndiciFetch()` sends through), so
// every client without a `fetch` option meets this transport.
const undiciDefault = fileURLToPath(new URL('./src/undici-default-send.setup.ts', import.meta.url));
const suites = ['core', 'auth', 'exposure', 'riskengineering', 'liability', 'approvals'];

export default defineConfig({
  test: {
    // One shows what Node's own fetch does with redirects (the transport never follows any);
    // the others describe core's node:http transport, which this run replaces.
    testNamePattern: /^(?!.*(Node's own fetch forwards|the node:http transport))/,
    projects: suites
      .map((name) => fileURLToPath(new URL(`../${name}`, import.meta.url)))
      .filter((root) => existsSync(root))
      .map((root) => ({
        resolve: { alias: { '@partner-apis/core/default-send': undiciDefault } },
        test: { name: root.split('/').at(-1), root, setupFiles: [setup] },
      })),
  },
});
