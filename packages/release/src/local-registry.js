// @ts-check
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { waitForLine } from './child-output.js';

/**
 * A running local npm registry.
 * @typedef {object} LocalRegistry
 * @property {string} url `http://127.0.0.1:PORT/`
 * @property {string} token an auth token of a user who may publish; keep it out of any output
 * @property {() => Promise<void>} close stops the registry process
 */

const serverScript = fileURLToPath(new URL('./local-registry-server.js', import.meta.url));

/**
 * Starts verdaccio in a child process on 127.0.0.1 and a free port, storing packages in
 * `dir`, without uplinks: it serves only what is published to it. Adds a user and returns its
 * token for publishing.
 *
 * @param {string} dir an empty folder
 * @returns {Promise<LocalRegistry>}
 */
export async function startLocalRegistry(dir) {
  const child = spawn(process.execPath, [serverScript, dir], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const line = await waitForLine(child, /^LISTENING /, 60_000);
    const { port } = JSON.parse(line.slice('LISTENING '.length));
    const url = `http://127.0.0.1:${port}/`;
    const token = await addUser(url);
    return { url, token, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Adds a user the way `npm adduser` does, and returns its token.
 * @param {string} url
 * @returns {Promise<string>}
 */
async function addUser(url) {
  const name = 'rehearsal';
  const response = await globalThis.fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: randomBytes(16).toString('hex') }),
    signal: globalThis.AbortSignal.timeout(30_000),
  });
  const body = /** @type {{ token?: unknown }} */ (await response.json());
  if (!response.ok || typeof body.token !== 'string') {
    throw new Error(`The local registry refused to add a user: HTTP ${response.status}`);
  }
  return body.token;
}
