import { inspect } from 'node:util';
import { clientIdHeaders } from '@partner-apis/auth';
import { createVirtualTime, startFaultServer, type FaultServer } from '@partner-apis/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHeaderRedactor } from './header-redactor.js';
import { createObserver } from './observer.js';
import {
  createClientPipeline,
  type Logger,
  type RequestEvent,
  type ResponseEvent,
  type RetryEvent,
} from '../index.js';

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SECRET = 'client-secret-4411';

function recordingLogger() {
  const lines: string[] = [];
  const record = (level: string) => (message: string, details?: Record<string, unknown>) =>
    lines.push(`${level} ${message} ${inspect(details, { depth: 10 })}`);
  const logger: Logger = {
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
  };
  return { logger, lines };
}

describe('events and logging', () => {
  it('reports onRequest, onResponse and onRetry in order, with redacted URL and headers', async () => {
    server = await startFaultServer([
      { status: 503, headers: { 'retry-after': '0', 'x-correlation-id': 'c-1' } },
      { body: 'ok', headers: { 'set-cookie': 'session=abc' } },
    ]);
    const time = createVirtualTime();
    const seen: Array<[string, RequestEvent | ResponseEvent | RetryEvent]> = [];
    const { fetch } = createClientPipeline({
      baseUrl: server.url,
      auth: clientIdHeaders({ clientId: 'id', clientSecret: SECRET }),
      clock: time.now,
      sleep: time.sleep,
      tracingHeaders: { requestId: 'X-Z-Request-Id' },
      events: {
        onRequest: (event) => seen.push(['request', event]),
        onResponse: (event) => seen.push(['response', event]),
        onRetry: (event) => seen.push(['retry', event]),
      },
    });
    await fetch(
      new Request(`${server.url}/items?employeeNumber=42`, {
        headers: { accept: 'application/json', 'x-custom': 'private' },
      }),
    );
    expect(seen.map(([kind]) => kind)).toEqual([
      'request',
      'response',
      'retry',
      'request',
      'response',
    ]);
    const [, request] = seen[0] as [string, RequestEvent];
    expect(request).toMatchObject({
      method: 'GET',
      url: `${server.url}/items?employeeNumber=42`,
      attempt: 1,
      headers: {
        accept: 'application/json',
        'x-custom': '[redacted]',
        client_id: '[redacted]',
        client_secret: '[redacted]',
        'x-z-request-id': request.requestId,
      },
    });
    const [, response] = seen[1] as [string, ResponseEvent];
    expect(response).toMatchObject({ status: 503, attempt: 1, durationMs: 0 });
    expect(response.headers['x-correlation-id']).toBe('c-1');
    const [, retry] = seen[2] as [string, RetryEvent];
    expect(retry).toMatchObject({ attempt: 1, delayMs: 0 });
    expect(retry.error.name).toBe('ServiceUnavailableError');
    const [, last] = seen[4] as [string, ResponseEvent];
    expect(last.headers['set-cookie']).toBe('[redacted]');
    expect(JSON.stringify(seen)).not.toContain(SECRET);
  });

  it('logs through the allow-list redactor; credentials never appear, even when allow-listed', async () => {
    server = await startFaultServer([{ status: 503, headers: { 'retry-after': '0' } }, {}]);
    const time = createVirtualTime();
    const { logger, lines } = recordingLogger();
    const { fetch } = createClientPipeline({
      baseUrl: server.url,
      auth: clientIdHeaders({ clientId: 'id', clientSecret: SECRET }),
      clock: time.now,
      sleep: time.sleep,
      logger,
      logHeaders: ['x-tenant', 'client_secret', 'Authorization'],
    });
    await fetch(new Request(`${server.url}/items`, { headers: { 'x-tenant': 'acme' } }));
    const text = lines.join('\n');
    expect(lines.filter((line) => line.startsWith('debug'))).toHaveLength(4);
    expect(lines.filter((line) => line.startsWith('warn'))).toHaveLength(1);
    expect(text).toContain("'x-tenant': 'acme'");
    expect(text).toContain("client_secret: '[redacted]'");
    expect(text).not.toContain(SECRET);
  });

  it('a hook that throws is logged and the request goes on', async () => {
    server = await startFaultServer([{ body: 'fine' }]);
    const { logger, lines } = recordingLogger();
    const { fetch } = createClientPipeline({
      baseUrl: server.url,
      logger,
      events: {
        onRequest: () => {
          throw new Error('hook bug');
        },
      },
    });
    expect(await (await fetch(new Request(`${server.url}/x`))).text()).toBe('fine');
    expect(lines.some((line) => line.includes('the onRequest hook threw'))).toBe(true);
  });
});

describe('warnings', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reach the logger once per message, with their code', () => {
    const warn = vi.fn();
    const observer = createObserver(undefined, { warn });
    observer.warn('the tier is stricter', 'PARTNER_APIS_RATE_LIMIT');
    observer.warn('the tier is stricter', 'PARTNER_APIS_RATE_LIMIT');
    observer.warn('the secret expires', 'PARTNER_APIS_SECRET_EXPIRY');
    expect(warn.mock.calls).toEqual([
      ['the tier is stricter', { code: 'PARTNER_APIS_RATE_LIMIT' }],
      ['the secret expires', { code: 'PARTNER_APIS_SECRET_EXPIRY' }],
    ]);
  });

  it('are process warnings of their code without a logger, and a throwing logger changes nothing', () => {
    const emitWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    createObserver(undefined, undefined).warn('assumed', 'PARTNER_APIS_ASSUMPTION');
    expect(emitWarning).toHaveBeenCalledWith('assumed', { code: 'PARTNER_APIS_ASSUMPTION' });
    const throwing = createObserver(undefined, {
      warn: () => {
        throw new Error('logger bug');
      },
    });
    expect(() => throwing.warn('assumed', 'PARTNER_APIS_ASSUMPTION')).not.toThrow();
  });
});

describe('createHeaderRedactor', () => {
  it('shows allow-listed values only, never a credential header', () => {
    const redact = createHeaderRedactor(['Accept', 'authorization', 'x-key'], ['x-key']);
    expect(
      redact(
        new Headers({
          accept: 'a',
          authorization: 'Bearer t',
          cookie: 'c',
          'x-key': 'k',
          other: 'o',
        }),
      ),
    ).toEqual({
      accept: 'a',
      authorization: '[redacted]',
      cookie: '[redacted]',
      'x-key': '[redacted]',
      other: '[redacted]',
    });
  });
});
