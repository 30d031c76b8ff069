// Importing a client loads none of Node's http, https or zlib: they are most of a cold import's
// time, and the default transport loads them with the first request. Each check runs in a fresh
// `node` process, as a user's program starts.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SERVICES = ['approvals', 'exposure', 'liability', 'riskengineering'];
const DEFERRED = ['http', 'https', 'zlib'];

let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * The Node built-ins among `DEFERRED` a fresh process has loaded after importing `specifier`,
 * and after one call through the default transport (an approvals call, whatever it answers). `process.moduleLoadList`
 * names every built-in Node has loaded, as `NativeModule <name>`.
 */
async function builtinsLoaded(specifier: string) {
  const script = `
    const loaded = () => ${JSON.stringify(DEFERRED)}.filter((name) =>
      process.moduleLoadList.includes('NativeModule ' + name));
    await import(${JSON.stringify(specifier)});
    const atImport = loaded();
    const { createApprovalsClient } = await import('@partner-apis/approvals');
    const credentials = { clientId: 'cold-import', clientSecret: 'cold-import-secret' };
    await createApprovalsClient({ baseUrl: ${JSON.stringify(baseUrl)}, credentials, retry: { attempts: 1 } })
      .approvals.list('100234')
      .catch(() => undefined);
    console.log(JSON.stringify({ atImport, afterRequest: loaded() }));
  `;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: import.meta.dirname,
    timeout: 20_000,
  });
  return JSON.parse(stdout) as { atImport: string[]; afterRequest: string[] };
}

/** Prints the URL of every module file the process loads, built-ins aside, on stderr. */
const LOAD_HOOKS = `export async function load(url, context, next) {
  if (url.startsWith('file:')) console.error('LOADED ' + url);
  return next(url, context);
}`;
const REGISTER_HOOKS = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module';
   register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(LOAD_HOOKS)}`)});`,
)}`;

/** The workspace packages whose module files a fresh process loads to import `specifier`. */
async function packagesLoaded(specifier: string) {
  const { stderr } = await run(
    process.execPath,
    ['--import', REGISTER_HOOKS, '--input-type=module', '-e', `await import('${specifier}')`],
    { cwd: import.meta.dirname, timeout: 20_000 },
  );
  return [...new Set(stderr.match(/(?<=^LOADED file:\/\/.*\/packages\/)[^/]+/gm))].sort();
}

describe.each(SERVICES)('@partner-apis/%s', (service) => {
  it('loads core, auth and errors from their own packages, the one copy every service shares', async () => {
    expect(await packagesLoaded(`@partner-apis/${service}`)).toEqual(
      ['auth', 'core', 'errors', service].sort(),
    );
  });

  it('loads http and zlib with the first request, not at import', async () => {
    const { atImport, afterRequest } = await builtinsLoaded(`@partner-apis/${service}`);
    expect(atImport).toEqual([]);
    // The plain-http request needs http and zlib, never https.
    expect(afterRequest).toEqual(['http', 'zlib']);
  });
});
