import { basicAuth, clientIdHeaders } from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import { createVirtualTime, startFaultServer, type FaultServer } from '@partner-apis/testing';
import { Agent as HttpAgent } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClientPipeline, type PipelineOptions } from '../index.js';

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.restoreAllMocks();
});

function refused(options: Partial<PipelineOptions>): ConfigurationError {
  try {
    createClientPipeline({ baseUrl: 'https://api.example.com', ...options } as PipelineOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error('the options were accepted');
}

describe('createClientPipeline options', () => {
  it('http base URL refused, naming the option', () => {
    const error = refused({ baseUrl: 'http://example.com' });
    expect(error.message).toBe('baseUrl: must use https (got http://example.com)');
    expect(error.option).toBe('baseUrl');
  });

  it('refuses an http base URL without showing credentials in it', () => {
    const error = refused({ baseUrl: 'http://user:s3cr3t@example.com/v1?key=k3y' });
    expect(error.message).toBe(
      'baseUrl: must use https (got http://example.com/v1?key=[redacted])',
    );
  });

  it.each([
    'http://localhost:8080/v1',
    'http://127.0.0.1:3000',
    'http://127.10.20.30',
    'http://[::1]:4000/v1',
    'https://api.example.com/v1/',
  ])('accepts %s', (baseUrl) => {
    expect(createClientPipeline({ baseUrl }).baseUrl).toBe(baseUrl.replace(/\/$/, ''));
  });

  it.each([
    [{ baseUrl: 'not a url' }, 'baseUrl: must be an absolute https URL (got not a url)'],
    [{ baseUrl: 'ftp://example.com' }, 'baseUrl: must use https (got ftp://example.com)'],
    [{ baseUrl: undefined }, 'baseUrl: must be an absolute https URL'],
    [{ retry: { attempts: 0 } }, 'retry.attempts: must be an integer from 1 to 10 (got 0)'],
    [{ retry: { attempts: 2.5 } }, 'retry.attempts: must be an integer from 1 to 10 (got 2.5)'],
    [{ retry: { baseDelayMs: -1 } }, 'retry.baseDelayMs: must be a number from 0 to 2147483647'],
    [{ retry: { retryWrites: 'yes' } }, 'retry.retryWrites: must be true or false'],
    [{ retry: 3 }, 'retry: must be an object'],
    [{ timeout: { attemptMs: 0 } }, 'timeout.attemptMs: must be a number from 1 to 2147483647'],
    [{ timeout: { totalMs: Infinity } }, 'timeout.totalMs: must be a number from 1 to 2147483647'],
    // Node fires a timer of 2^31 ms or more at once: every call would time out on the spot.
    [
      { timeout: { attemptMs: 2 ** 31 } },
      'timeout.attemptMs: must be a number from 1 to 2147483647',
    ],
    [{ timeout: { totalMs: 2 ** 31 } }, 'timeout.totalMs: must be a number from 1 to 2147483647'],
    [{ retry: { maxRetryAfterMs: 2 ** 32 } }, 'retry.maxRetryAfterMs: must be a number from 0 to'],
    [{ maxResponseBytes: 0 }, 'maxResponseBytes: must be an integer of at least 1 (got 0)'],
    [{ maxResponseBytes: 1.5 }, 'maxResponseBytes: must be an integer of at least 1 (got 1.5)'],
    [{ maxResponseBytes: '1mb' }, 'maxResponseBytes: must be an integer of at least 1 (got 1mb)'],
    // The exact reason depends on the default transport (see node-http-send.test.ts).
    [{ agent: {} }, 'agent: '],
    [
      { agent: new HttpAgent(), fetch: globalThis.fetch },
      'agent: cannot be combined with fetch: give the agent to your fetch',
    ],
    [{ rateLimit: 'platinum' }, 'rateLimit: must be bronze, silver, gold or { requestsPerSecond }'],
    [{ rateLimit: { requestsPerSecond: 0 } }, 'rateLimit.requestsPerSecond: must be a number'],
    [{ rateLimit: { requestsPerSecond: 5, burst: 0 } }, 'rateLimit.burst: must be an integer'],
    [{ conversationId: 'always' }, 'conversationId: must be per-client or per-call (got always)'],
    [{ maxRedirects: 50 }, 'maxRedirects: must be an integer from 0 to 20 (got 50)'],
    [{ auth: { token: 'x' } }, 'auth: must be an auth scheme'],
    [{ fetch: 'fetch' }, 'fetch: must be a function'],
    [{ clock: 5 }, 'clock: must be a function'],
    [{ logHeaders: 'accept' }, 'logHeaders: must be an array of header names'],
  ])('refuses %j', (options, message) => {
    expect(refused(options as Partial<PipelineOptions>).message).toContain(message);
  });

  it('refuses bad credentials when the scheme is built, never showing them', () => {
    expect(() => basicAuth({ clientId: 'a:b', clientSecret: 's3cr3t' })).toThrow(
      'auth.clientId: must not contain ":" for Basic authentication',
    );
    expect(() => clientIdHeaders({ clientId: 'id', clientSecret: '' })).toThrow(
      'auth.clientSecret: must be a non-empty string',
    );
    expect(() => clientIdHeaders({ clientId: 'id', clientSecret: 'a\nb' })).toThrow(
      /^auth.clientSecret: must not contain line breaks/,
    );
  });

  it('refuses a request to an http URL outside loopback, before sending', async () => {
    const { fetch } = createClientPipeline({ baseUrl: 'https://api.example.com' });
    await expect(fetch(new Request('http://api.example.com/x'))).rejects.toThrow(
      'baseUrl: must use https (got http://api.example.com/x)',
    );
  });
});

describe('secret expiry warning at start', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');

  it('logs one warning when the secret expires within 60 days', () => {
    const warn = vi.fn();
    createClientPipeline({
      baseUrl: 'https://api.example.com',
      auth: clientIdHeaders({ clientId: 'id', clientSecret: 's', secretCreatedAt: '2025-12-20' }),
      clock: () => now,
      logger: { warn },
    });
    expect(warn.mock.calls).toEqual([
      [
        'The client secret expires on 2026-12-20 (in 27 days): set a new one in the portal.',
        { code: 'PARTNER_APIS_SECRET_EXPIRY' },
      ],
    ]);
  });

  it('says so when it has expired, through process.emitWarning without a logger', () => {
    const emitWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    createClientPipeline({
      baseUrl: 'https://api.example.com',
      auth: basicAuth({ clientId: 'id', clientSecret: 's', secretExpiresAt: '2026-11-01' }),
      clock: () => now,
    });
    expect(emitWarning).toHaveBeenCalledWith(
      'The client secret expired on 2026-11-01: set a new one in the portal.',
      { code: 'PARTNER_APIS_SECRET_EXPIRY' },
    );
  });

  it('stays quiet when the secret has more than 60 days left or no date is known', () => {
    const warn = vi.fn();
    for (const auth of [
      basicAuth({ clientId: 'id', clientSecret: 's', secretCreatedAt: '2026-06-01' }),
      basicAuth({ clientId: 'id', clientSecret: 's' }),
    ]) {
      createClientPipeline({ baseUrl: 'https://x.test', auth, clock: () => now, logger: { warn } });
    }
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('rate limiting', () => {
  it('rate limiter keeps 10/s within ±10 % (silver, on virtual time)', async () => {
    const time = createVirtualTime();
    const sentAt: number[] = [];
    let answered = 0;
    const { fetch } = createClientPipeline({
      baseUrl: 'http://127.0.0.1:9',
      // Answers at once, so every request is on the wire at the virtual time it was sent.
      fetch: () => {
        answered += 1;
        return Promise.resolve(new Response('ok'));
      },
      rateLimit: 'silver',
      clock: time.now,
      sleep: time.sleep,
      events: { onRequest: () => sentAt.push(time.now()) },
    });
    await Promise.all(
      Array.from({ length: 40 }, () =>
        fetch(new Request('http://127.0.0.1:9/x')).then((r) => r.text()),
      ),
    );
    expect(answered).toBe(40);
    const rate = (sentAt.length - 1) / (((sentAt.at(-1) ?? 0) - (sentAt[0] ?? 0)) / 1000);
    expect(rate).toBeGreaterThanOrEqual(9);
    expect(rate).toBeLessThanOrEqual(11);
    // Never faster than the rate, in any window.
    for (let i = 1; i < sentAt.length; i += 1) {
      expect((sentAt[i] ?? 0) - (sentAt[i - 1] ?? 0)).toBeGreaterThanOrEqual(99.999);
    }
  });

  it.each([
    // One request per rolling second, plus the safety margin.
    ['bronze', 1020],
    ['gold', 10],
  ] as const)('%s spaces requests %i ms apart', async (tier, gap) => {
    server = await startFaultServer([{ body: 'ok' }]);
    const time = createVirtualTime();
    const sentAt: number[] = [];
    const { fetch } = createClientPipeline({
      baseUrl: server.url,
      rateLimit: tier,
      clock: time.now,
      sleep: time.sleep,
      events: { onRequest: () => sentAt.push(time.now()) },
    });
    for (let i = 0; i < 3; i += 1) await fetch(new Request(`${server.url}/x`));
    expect(sentAt.map((t) => t - (sentAt[0] ?? 0))).toEqual([0, gap, 2 * gap]);
  });

  it('a custom rate with a burst lets the burst go at once, never more than the rate in a second', async () => {
    const time = createVirtualTime();
    const sentAt: number[] = [];
    const { fetch } = createClientPipeline({
      baseUrl: 'http://127.0.0.1:9',
      // Answers at once, so every request is on the wire at the virtual time it was sent.
      fetch: () => Promise.resolve(new Response('ok')),
      rateLimit: { requestsPerSecond: 4, burst: 3 },
      clock: time.now,
      sleep: time.sleep,
      events: { onRequest: () => sentAt.push(time.now() - start) },
    });
    const start = time.now();
    await Promise.all(Array.from({ length: 6 }, () => fetch(new Request('http://127.0.0.1:9/x'))));
    // The fifth waits until the first leaves the rolling second (plus the 20 ms margin).
    expect(sentAt.sort((a, b) => a - b)).toEqual([0, 0, 0, 250, 1020, 1020]);
  });
});
