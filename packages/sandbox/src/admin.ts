import type { IncomingMessage, ServerResponse } from 'node:http';
import { SandboxConfigError } from './config-error.js';
import { readBodyText } from './http/request-body.js';
import type { Sandbox } from './sandbox.js';

/** Every admin endpoint sits under this path, outside every service's base path. */
export const ADMIN_PREFIX = '/__sandbox/';

function reply(response: ServerResponse, status: number, value?: unknown): void {
  if (value === undefined) {
    response.writeHead(status).end();
    return;
  }
  const body = JSON.stringify(value);
  response
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    })
    .end(body);
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBodyText(request);
  if (text === undefined) throw new SandboxConfigError('The body is larger than 1 MiB');
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SandboxConfigError('The body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SandboxConfigError('The body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/**
 * The admin endpoints, for tests in other processes and for the CLI:
 *
 * | method | path                              | body                          |
 * | ------ | --------------------------------- | ----------------------------- |
 * | GET    | /__sandbox/stats                  |                               |
 * | DELETE | /__sandbox/stats                  |                               |
 * | GET    | /__sandbox/routes                 |                               |
 * | PUT    | /__sandbox/faults/{selector}      | a fault plan                  |
 * | DELETE | /__sandbox/faults[/{selector}]    |                               |
 * | POST   | /__sandbox/keys/revoke            | `{ "service", "key" }`        |
 * | POST   | /__sandbox/keys/restore           |                               |
 * | PUT    | /__sandbox/token-lifetime         | `{ "seconds" }`               |
 * | POST   | /__sandbox/tokens/expire          |                               |
 */
export async function handleAdmin(
  request: IncomingMessage,
  response: ServerResponse,
  pathname: string,
  sandbox: Sandbox,
): Promise<void> {
  const method = request.method ?? 'GET';
  const path = pathname.slice(ADMIN_PREFIX.length);
  try {
    if (path === 'stats' && method === 'GET') return reply(response, 200, sandbox.stats());
    if (path === 'stats' && method === 'DELETE') {
      sandbox.resetStats();
      return reply(response, 204);
    }
    if (path === 'routes' && method === 'GET') return reply(response, 200, sandbox.routes());
    if (path === 'faults' && method === 'DELETE') {
      sandbox.clearFaults();
      return reply(response, 204);
    }
    if (path.startsWith('faults/')) {
      const selector = decodeURIComponent(path.slice('faults/'.length));
      if (method === 'PUT') {
        sandbox.fault(selector, (await readJson(request)) as never);
        return reply(response, 204);
      }
      if (method === 'DELETE') {
        sandbox.clearFaults(selector);
        return reply(response, 204);
      }
    }
    if (path === 'keys/revoke' && method === 'POST') {
      const { service, key } = await readJson(request);
      sandbox.revokeKey(service as never, key as never);
      return reply(response, 204);
    }
    if (path === 'keys/restore' && method === 'POST') {
      sandbox.restoreKeys();
      return reply(response, 204);
    }
    if (path === 'token-lifetime' && method === 'PUT') {
      sandbox.setTokenLifetime((await readJson(request)).seconds as never);
      return reply(response, 204);
    }
    if (path === 'tokens/expire' && method === 'POST') {
      sandbox.expireTokens();
      return reply(response, 204);
    }
    return reply(response, 404, {
      code: 'not_found',
      message: `No admin endpoint ${method} ${pathname}`,
    });
  } catch (error) {
    if (error instanceof SandboxConfigError || error instanceof URIError) {
      return reply(response, 400, { code: 'data_validation', message: error.message });
    }
    throw error;
  }
}
