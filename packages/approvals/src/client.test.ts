import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { ApiError } from '@partner-apis/errors';
import { createApprovalsClient, type ApprovalsResult } from './index.js';

interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
}

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

let server: Server;
let baseUrl: string;
let seen: Seen[] = [];
let reply: { status: number; type: string; body: string } = { status: 200, type: '', body: '' };

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, headers: req.headers });
    res.writeHead(reply.status, { 'content-type': reply.type });
    res.end(reply.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  reply = { status: 200, type: 'application/json', body: JSON.stringify(result) };
});

describe('createApprovalsClient().getApprovals', () => {
  it('sends exactly the documented headers, and the secret nowhere else', async () => {
    const client = createApprovalsClient({ baseUrl, credentials });
    await client.getApprovals('100234');
    await client.getApprovals('100234');

    expect(seen).toHaveLength(2);
    const [first, second] = seen as [Seen, Seen];
    expect(first.method).toBe('GET');
    expect(first.url).toBe('/v1/approvals?employeeNumber=100234');
    expect(first.headers['client_id']).toBe(credentials.clientId);
    expect(first.headers['client_secret']).toBe(credentials.clientSecret);
    expect(first.headers['x-z-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['x-z-request-id']).not.toBe(first.headers['x-z-request-id']);
    expect(first.headers['authorization']).toBeUndefined();
    const elsewhere = Object.entries(first.headers)
      .filter(([name]) => name !== 'client_secret')
      .map(([, value]) => String(value));
    expect(elsewhere.join('\n') + first.url).not.toContain(credentials.clientSecret);
  });

  it('returns the typed result unchanged', async () => {
    const client = createApprovalsClient({ baseUrl, credentials });
    await expect(client.getApprovals('100234')).resolves.toEqual(result);
  });

  it('throws ApiError with code and correlationId on 401', async () => {
    reply = {
      status: 401,
      type: 'application/json',
      body: JSON.stringify({
        code: 'authentication_error',
        message: 'Invalid client credentials.',
        correlationId: 'corr-401',
      }),
    };
    const client = createApprovalsClient({ baseUrl, credentials });
    const error = await client.getApprovals('100234').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 401,
      code: 'authentication_error',
      correlationId: 'corr-401',
    });
    expect((error as ApiError).requestId).toBe(seen[0]?.headers['x-z-request-id']);
    expect(String(error)).not.toContain(credentials.clientSecret);
  });

  it('throws ApiError with status 502 on an HTML page from a gateway', async () => {
    reply = { status: 502, type: 'text/html', body: '<html><h1>502 Bad Gateway</h1></html>' };
    const client = createApprovalsClient({ baseUrl, credentials });
    await expect(client.getApprovals('100234')).rejects.toMatchObject({
      name: 'ApiError',
      status: 502,
      code: 'unexpected_response',
    });
  });

  it.each(['', '   '])(
    'refuses an empty employeeNumber (%j) before any request',
    async (employeeNumber) => {
      const client = createApprovalsClient({ baseUrl, credentials });
      await expect(client.getApprovals(employeeNumber)).rejects.toThrow(/employeeNumber/);
      expect(seen).toHaveLength(0);
    },
  );
});

describe('types', () => {
  it('types contract dates as strings and refuses misspelled fields', () => {
    type Contract = NonNullable<ApprovalsResult['contractApprovals']>[number];
    type Details = NonNullable<Contract['contractDetails']>;
    expectTypeOf<Details['contactStartDate']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<NonNullable<ApprovalsResult['invoiceApprovals']>[number]['invoiceDetails']>()
      .exclude<undefined>()
      .toHaveProperty('invoiceGrossTotal')
      .toEqualTypeOf<string | undefined>();
    // @ts-expect-error the upstream spelling is contactStartDate
    type Misspelled = Details['contractStartDate'];
    expectTypeOf<Misspelled>().toBeAny();
  });
});
