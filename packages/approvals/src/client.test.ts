import {
  ApiError,
  AuthenticationError,
  BadGatewayError,
  ConfigurationError,
  InvalidArgumentError,
} from '@partner-apis/errors';
import {
  startFaultServer,
  type FaultServer,
  type FaultStep,
  type RecordedRequest,
} from '@partner-apis/testing';
import type { TestHooks } from '@partner-apis/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createApprovalsClient,
  type ApprovalsClientOptions,
  type ApprovalsResult,
} from './index.js';

const credentials = { clientId: 'client-7f3a', clientSecret: 's3cr3t-value-9c1d' };
const result: ApprovalsResult = {
  employeeNumber: '100234',
  userId: 4711,
  userFullname: 'Amara Okafor',
  requisitionApprovals: [],
  invoiceApprovals: [],
  expenseReportApprovals: [],
  contractApprovals: [
    {
      approvalId: 990004,
      approvalCreatedDate: '2026-11-05T14:05:00+01:00',
      contractDetails: {
        contractNumber: 'CTR-2026-0192',
        contactStartDate: '2027-01-01T00:00:00+01:00',
        contactEndDate: '2029-12-31T23:59:59+01:00',
      },
    },
  ],
};

/** Headers the runtime's fetch adds by itself; everything else is the client's doing. */
const TRANSPORT_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'connection',
  'host',
  'sec-fetch-mode',
  'user-agent',
]);

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(steps: readonly FaultStep[] = [{ body: result }]) {
  server = await startFaultServer({ '/v1/approvals': steps });
  return server;
}

function client(options: Partial<ApprovalsClientOptions> & TestHooks = {}) {
  return createApprovalsClient({
    baseUrl: `${server?.url}/v1`,
    credentials,
    retry: { baseDelayMs: 1 },
    ...options,
  });
}

function clientHeaders(request: RecordedRequest | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(request?.headers ?? {}).filter(([name]) => !TRANSPORT_HEADERS.has(name)),
  );
}

describe('approvals.list on the wire', () => {
  it('withResponse() gives the request id, correlation id and attempts beside the result', async () => {
    const { requests } = await serve([
      { status: 503, headers: { 'retry-after': '0' } },
      { body: result, headers: { 'x-correlation-id': 'corr-7' } },
    ]);
    const { data, requestId, correlationId, attempts } = await client()
      .approvals.list('100234', { retry: { attempts: 2 } })
      .withResponse();
    expect(data).toEqual(result);
    expect(attempts).toBe(2);
    expect(correlationId).toBe('corr-7');
    expect(requestId).toBe(requests[1]?.headers['x-z-request-id']);
  });

  it('sends exactly the documented headers, and the secret nowhere else', async () => {
    const { requests } = await serve();
    const approvals = client();
    await approvals.approvals.list('100234');
    await approvals.approvals.list('100234');

    expect(requests).toHaveLength(2);
    const [first, second] = requests;
    expect(first?.method).toBe('GET');
    expect(first?.url).toBe('/v1/approvals?employeeNumber=100234');
    expect(clientHeaders(first)).toEqual({
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      'x-z-request-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(second?.headers['x-z-request-id']).not.toBe(first?.headers['x-z-request-id']);
    const elsewhere = Object.entries(first?.headers ?? {})
      .filter(([name]) => name !== 'client_secret')
      .map(([, value]) => String(value));
    expect(elsewhere.join('\n') + (first?.url ?? '') + (first?.body ?? '')).not.toContain(
      credentials.clientSecret,
    );
  });

  it('encodes the employee number into the query', async () => {
    const { requests } = await serve();
    await client().approvals.list('10 02&34');
    expect(requests[0]?.url).toBe('/v1/approvals?employeeNumber=10%2002%2634');
  });

  it('names the caller, then this package and the runtime, in the User-Agent', async () => {
    const { requests } = await serve();
    await client({ userAgent: 'approvals-digest/1.0' }).approvals.list('100234');
    await client().approvals.list('100234');
    const node = process.versions.node.split('.').slice(0, 2).join('.');
    // From source the build has not written the version in; a built package names it.
    expect(requests.map((r) => r.headers['user-agent'])).toEqual([
      `approvals-digest/1.0 partner-apis-approvals node/${node}`,
      `partner-apis-approvals node/${node}`,
    ]);
  });

  it('writes the redacted wire log to stderr when PARTNER_APIS_LOG asks and no logger is given', async () => {
    const { requests } = await serve([{ body: result }, { body: result }]);
    const lines: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    vi.stubEnv('PARTNER_APIS_LOG', 'debug');
    try {
      await client().approvals.list('100234');
      await client({ logger: {} }).approvals.list('100234');
    } finally {
      vi.unstubAllEnvs();
      write.mockRestore();
    }
    expect(requests).toHaveLength(2);
    const log = lines.join('');
    expect(log).toContain('[partner-apis] debug');
    expect(log.match(/GET [^ ]*\/v1\/approvals/g)?.length).toBe(2);
    expect(log).not.toContain(credentials.clientSecret);
  });

  it('returns the typed result unchanged, also through the deprecated getApprovals', async () => {
    await serve();
    const approvals = client();
    await expect(approvals.approvals.list('100234')).resolves.toEqual(result);
    await expect(approvals.getApprovals('100234')).resolves.toEqual(result);
  });

  it('throws AuthenticationError with code, correlationId and request id on 401', async () => {
    const { requests } = await serve([
      {
        status: 401,
        body: {
          code: 'authentication_error',
          message: 'Invalid client credentials.',
          correlationId: 'corr-401',
        },
      },
    ]);
    const error = await client()
      .approvals.list('100234')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 401,
      code: 'authentication_error',
      correlationId: 'corr-401',
    });
    expect((error as ApiError).requestId).toBe(requests[0]?.headers['x-z-request-id']);
    expect(requests).toHaveLength(1);
    const shown = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`;
    expect(shown).not.toContain(credentials.clientSecret);
  });

  it("throws BadGatewayError with status 502 on a gateway's HTML page, after retrying", async () => {
    const { requests } = await serve([
      {
        status: 502,
        headers: { 'content-type': 'text/html' },
        body: '<html><h1>502 Bad Gateway</h1></html>',
      },
    ]);
    const error = await client()
      .approvals.list('100234')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadGatewayError);
    expect(error).toMatchObject({ status: 502, code: 'unexpected_response' });
    expect((error as ApiError).rawBody).toContain('502 Bad Gateway');
    expect(requests).toHaveLength(3);
  });

  it.each([
    ['', '/v1/approvals?employeeNumber='],
    [undefined, '/v1/approvals'],
    [100234, '/v1/approvals?employeeNumber=100234'],
  ])(
    'sends the employee number %j with a warning: the documents do not say it is refused',
    async (employeeNumber, url) => {
      const { requests } = await serve();
      const warnings: string[] = [];
      await client({
        logger: { warn: (message: string) => warnings.push(message) },
      }).approvals.list(employeeNumber as string);
      expect(requests.map((r) => r.url)).toEqual([url]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^approvals\.list: employeeNumber /);
    },
  );

  it.each(['', undefined, 100234])(
    'refuses the employee number %j before any request when asked to',
    async (employeeNumber) => {
      const { requests } = await serve();
      const error = await client({ assumptions: 'refuse' })
        .approvals.list(employeeNumber as string)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error).toMatchObject({ argument: 'employeeNumber', operation: 'approvals.list' });
      expect(requests).toHaveLength(0);
    },
  );

  it.each([
    ['x', 'options'],
    [{ signal: 'stop' }, 'options.signal'],
  ])('refuses the call options %j before any request', async (options, argument) => {
    const { requests } = await serve();
    const error = await client()
      .approvals.list('100234', options as never)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'InvalidArgumentError', argument });
    expect(requests).toHaveLength(0);
  });
});

describe('tier', () => {
  it.each([
    ['bronze', 1020], // one per rolling second, plus the limiter's 20 ms margin
    ['silver', 100],
    ['gold', 10],
    [{ requestsPerSecond: 4 }, 250],
  ] as const)('%j paces calls %d ms apart', async (tier, intervalMs) => {
    const { requests } = await serve();
    const waits: number[] = [];
    const approvals = client({
      tier,
      clock: () => 0,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    for (let call = 0; call < 3; call += 1) await approvals.approvals.list('100234');
    expect(waits).toEqual([intervalMs, 2 * intervalMs]);
    expect(requests).toHaveLength(3);
  });

  it('paces nothing without a tier', async () => {
    await serve();
    const waits: number[] = [];
    const approvals = client({
      clock: () => 0,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    for (let call = 0; call < 3; call += 1) await approvals.approvals.list('100234');
    expect(waits).toEqual([]);
  });
});

describe('createApprovalsClient refuses bad options, naming them', () => {
  const base = { baseUrl: 'https://approvals.example.com/v1', credentials };
  it.each([
    ['options', undefined],
    ['baseUrl', { ...base, baseUrl: 'http://approvals.example.com/v1' }],
    ['credentials', { ...base, credentials: undefined }],
    ['credentials.clientId', { ...base, credentials: { ...credentials, clientId: '' } }],
    ['credentials.clientSecret', { ...base, credentials: { clientId: 'x', clientSecret: 7 } }],
    [
      'credentials.secretCreatedAt',
      { ...base, credentials: { ...credentials, secretCreatedAt: 'spring' } },
    ],
    ['tier', { ...base, tier: 'platinum' }],
    ['tier.requestsPerSecond', { ...base, tier: { requestsPerSecond: 0 } }],
    ['tier.burst', { ...base, tier: { requestsPerSecond: 5, burst: 0.5 } }],
    ['retry.maxDelayMs', { ...base, retry: { maxDelayMs: -1 } }],
    ['fetch', { ...base, fetch: 'undici' }],
  ])('%s', (option, options) => {
    let error: unknown;
    try {
      createApprovalsClient(options as ApprovalsClientOptions);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ option });
    expect((error as Error).message).toMatch(new RegExp(`^${option.replace('.', '\\.')}: `));
    expect(String(error)).not.toContain(credentials.clientSecret);
  });
});

describe('createApprovalsClient and options it does not know', () => {
  it('tells the logger of a slip, and knows tier', () => {
    const warnings: string[] = [];
    const options = {
      baseUrl: 'https://approvals.example.com/v1',
      credentials,
      tier: 'silver' as const,
      logger: { warn: (message: string) => warnings.push(message) },
      tire: 'gold',
    };
    createApprovalsClient(options);
    expect(warnings).toEqual(['unknown option tire is ignored; did you mean tier?']);
  });

  it("tells the logger of a call's unknown option, and makes the call as without it", async () => {
    const { requests } = await serve();
    const warnings: string[] = [];
    const approvals = client({ logger: { warn: (message: string) => warnings.push(message) } });
    const slip = { timeout: { totalMS: 5 } } as Parameters<typeof approvals.approvals.list>[1];
    await expect(approvals.approvals.list('100234', slip)).resolves.toEqual(result);
    expect(requests).toHaveLength(1);
    expect(warnings).toEqual([
      'approvals.list: unknown option timeout.totalMS is ignored; did you mean timeout.totalMs?',
    ]);
  });
});
