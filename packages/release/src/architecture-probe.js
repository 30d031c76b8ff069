// @ts-check
// Measures what ARCHITECTURE.md states: run with `node --enable-source-maps`, so stack frames
// name the TypeScript sources of the built packages. Prints one JSON object on stdout.
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { createExposureClient } from '@partner-apis/exposure';
import { createLiabilityClient } from '@partner-apis/liability';
import { startSandbox } from '@partner-apis/sandbox';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The source files of this repository in a stack, from the socket's side to the caller's. */
function sourcesOf(/** @type {string} */ stack) {
  /** @type {string[]} */
  const files = [];
  for (const match of stack.matchAll(/\(?((?:file:\/\/)?\/[^():]+):\d+:\d+\)?$/gm)) {
    const file = (match[1] ?? '').replace(/^file:\/\//, '');
    if (!file.startsWith(root) || file.includes('/node_modules/')) continue;
    const relative = file.slice(root.length);
    if (relative.startsWith('packages/release/') || files.includes(relative)) continue;
    files.push(relative);
  }
  return files;
}

/** An agent that keeps the stack of each data request it is handed (token requests aside). */
class StackAgent extends http.Agent {
  /** @type {string[]} */
  stacks = [];
  /** @param {http.ClientRequest} request @param {http.RequestOptions} options */
  addRequest(request, options) {
    if (!request.path.includes('/token')) this.stacks.push(String(new Error('socket').stack));
    // @ts-expect-error addRequest is Node's, not in its types
    return super.addRequest(request, options);
  }
}

/** The `create…` functions of this repository that one `build()` runs, by V8's coverage. */
async function factoriesOf(/** @type {() => unknown} */ build) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  await session.post('Profiler.takePreciseCoverage');
  build();
  const { result } = await session.post('Profiler.takePreciseCoverage');
  session.disconnect();
  const names = new Set();
  for (const script of result) {
    if (!script.url.includes('/packages/') || script.url.includes('/node_modules/')) continue;
    for (const fn of script.functions) {
      if (/^create[A-Z]/.test(fn.functionName) && (fn.ranges[0]?.count ?? 0) > 0) {
        names.add(fn.functionName);
      }
    }
  }
  return [...names].sort();
}

Error.stackTraceLimit = 200;
const sandbox = await startSandbox();
try {
  const agent = new StackAgent();
  const liabilityAgent = new StackAgent();
  const exposure = createExposureClient({
    baseUrl: sandbox.urls.exposure,
    tokenUrl: sandbox.urls.tokenUrl,
    credentials: sandbox.credentials.exposure,
    agent,
  });
  // The second of each call is measured: the first loads the transport's modules, an await
  // that would hide the sync part of the path from the stack.
  for (let round = 0; round < 2; round += 1) {
    agent.stacks.length = 0;
    for await (const location of exposure.locations.list({ prefetch: 1 })) {
      if (location !== undefined) break;
    }
  }
  const liability = createLiabilityClient({
    baseUrl: sandbox.urls.liability,
    credentials: sandbox.credentials.liability,
    agent: liabilityAgent,
  });
  for (let round = 0; round < 2; round += 1) {
    liabilityAgent.stacks.length = 0;
    await liability.quotes.create(/** @type {never} */ ({})).catch(() => undefined);
  }
  const [list] = agent.stacks;
  const [create] = liabilityAgent.stacks;
  const factories = await factoriesOf(() =>
    createExposureClient({
      baseUrl: sandbox.urls.exposure,
      tokenUrl: sandbox.urls.tokenUrl,
      credentials: sandbox.credentials.exposure,
    }),
  );
  const measured = {
    'exposure.locations.list()': sourcesOf(list ?? ''),
    'liability.quotes.create()': sourcesOf(create ?? ''),
    'createExposureClient()': factories,
  };
  process.stdout.write(`${JSON.stringify(measured)}\n`);
} finally {
  await sandbox.close();
}
