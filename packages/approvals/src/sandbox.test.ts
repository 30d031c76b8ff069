import {
  AuthenticationError,
  BadGatewayError,
  ConnectionError,
  InternalServerError,
  MethodNotAllowedError,
  NotAcceptableError,
  NotFoundError,
  RateLimitError,
  ServiceUnavailableError,
  TimeoutError,
  ValidationError,
} from '@partner-apis/errors';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createApprovalsClient,
  flattenApprovals,
  type ApprovalsClientOptions,
  type ApprovalsResult,
} from './index.js';

let sb: Sandbox;

function client(options: Partial<ApprovalsClientOptions> = {}, sandbox = sb) {
  const { tier, ...credentials } = sandbox.credentials.approvals;
  return createApprovalsClient({
    baseUrl: sandbox.urls.approvals,
    credentials,
    tier,
    retry: { baseDelayMs: 1 },
    ...options,
  });
}

const getApprovals = () => sb.stats().routes['approvals.getApprovals'];

beforeAll(async () => {
  sb = await startSandbox({ seed: 6 });
});
afterAll(() => sb.close());
beforeEach(() => sb.resetStats());
afterEach(() => {
  sb.clearFaults();
  expect(sb.stats().responseViolations).toEqual([]);
});

describe('approvals.list against the sandbox', () => {
  it('returns every group of an employee, typed, and flattens them by date', async () => {
    const employee = sb.fixtures.employeeWithApprovals;
    const result: ApprovalsResult = await client().approvals.list(employee);
    expect(result.employeeNumber).toBe(employee);
    for (const group of [
      result.requisitionApprovals,
      result.invoiceApprovals,
      result.expenseReportApprovals,
      result.contractApprovals,
    ]) {
      expect(group?.length).toBeGreaterThan(0);
    }
    expect(result.contractApprovals?.[0]?.contractDetails).toHaveProperty('contactStartDate');

    const flat = flattenApprovals(result);
    const total =
      (result.requisitionApprovals?.length ?? 0) +
      (result.invoiceApprovals?.length ?? 0) +
      (result.expenseReportApprovals?.length ?? 0) +
      (result.contractApprovals?.length ?? 0);
    expect(flat).toHaveLength(total);
    const instants = flat.map((item) => Date.parse(item.approvalCreatedDate ?? ''));
    expect(instants).toEqual([...instants].sort((a, b) => a - b));
    expect(new Set(flat.map((item) => item.kind))).toEqual(
      new Set(['requisition', 'invoice', 'expenseReport', 'contract']),
    );
  });

  it('returns four empty groups for an employee with nothing outstanding', async () => {
    const [employee] = sb.fixtures.employeesWithNothingOutstanding;
    const result = await client().approvals.list(employee ?? '');
    expect(flattenApprovals(result)).toEqual([]);
  });

  it('gives the same answer through the deprecated getApprovals', async () => {
    const approvals = client();
    const employee = sb.fixtures.employeeWithApprovals;
    expect(await approvals.getApprovals(employee)).toEqual(
      await approvals.approvals.list(employee),
    );
  });
});

describe('errors from the sandbox', () => {
  it('400: a ValidationError pointing at the missing employeeNumber (through raw)', async () => {
    const error = await client()
      .raw.GET('/approvals', { params: { query: {} as never } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).causes).toContainEqual(
      expect.objectContaining({ field: '/employeeNumber', pointer: ['employeeNumber'] }),
    );
  });

  it('401: an AuthenticationError with the correlation id, and no secret anywhere', async () => {
    const { clientId } = sb.credentials.approvals;
    const error = await client({ credentials: { clientId, clientSecret: 'not-the-secret' } })
      .approvals.list('100234')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'authentication_error' });
    expect((error as AuthenticationError).correlationId).toEqual(expect.any(String));
    const shown = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`;
    expect(shown).not.toContain('not-the-secret');
    expect(getApprovals()?.requests).toBe(1);
  });

  it('503: retried, then answered', async () => {
    sb.fault('approvals.getApprovals', { sequence: [503, 503] });
    await expect(client().approvals.list('100234')).resolves.toHaveProperty('employeeNumber');
    expect(getApprovals()).toMatchObject({ requests: 3, faults: 2 });
  });

  it('a reset connection on the GET: retried, then answered', async () => {
    sb.fault('approvals.getApprovals', { sequence: ['reset'] });
    await expect(client().approvals.list('100234')).resolves.toHaveProperty('employeeNumber');
    expect(getApprovals()?.requests).toBe(2);
  });

  it.each([
    [500, InternalServerError],
    ['html502', BadGatewayError],
    [503, ServiceUnavailableError],
    ['reset', ConnectionError],
  ] as const)('%s once attempts are used up: %o', async (action, ErrorClass) => {
    sb.fault('approvals.getApprovals', { sequence: [action] });
    const error = await client({ retry: { attempts: 1 } })
      .approvals.list('100234')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
  });

  it('a slow answer: a TimeoutError of the attempt', async () => {
    sb.fault('approvals.getApprovals', { latencyMs: 2000 });
    const error = await client({ timeout: { attemptMs: 50 }, retry: { attempts: 1 } })
      .approvals.list('100234')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('404 and 405 and 406 through raw', async () => {
    const { raw } = client();
    const notFound = await raw.GET('/approvals/100234' as never, {} as never).catch((e) => e);
    expect(notFound).toBeInstanceOf(NotFoundError);
    const notAllowed = await raw.POST('/approvals' as never, {} as never).catch((e) => e);
    expect(notAllowed).toBeInstanceOf(MethodNotAllowedError);
    const notAcceptable = await raw
      .GET('/approvals', {
        params: { query: { employeeNumber: '100234' } },
        headers: { accept: 'text/csv' },
      })
      .catch((e: unknown) => e);
    expect(notAcceptable).toBeInstanceOf(NotAcceptableError);
  });
});

describe('tiers against a sandbox on the bronze tier', () => {
  let bronze: Sandbox;
  // A sandbox per test, so each starts with the tier's whole second to spend.
  beforeEach(async () => {
    bronze = await startSandbox({ credentials: { approvals: { tier: 'bronze' } } });
  });
  afterEach(() => bronze.close());

  const tooMany = () => bronze.stats().routes['approvals.getApprovals']?.tooManyRequests ?? 0;

  it('429: a client on a higher tier than its access gets a RateLimitError', async () => {
    const approvals = client({ tier: 'gold', retry: { attempts: 1 } }, bronze);
    // Five at once: however slow the way to the sandbox (a proxy on a busy machine), they do
    // not arrive a second apart each, so the bronze tier refuses at least one.
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => approvals.approvals.list('100234')),
    );
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(refused.length).toBeGreaterThan(0);
    for (const error of refused) {
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ status: 429, retryAfterMs: 1000 });
    }
    expect(tooMany()).toBe(refused.length);
  });

  it('a client paced to bronze gets every answer', async () => {
    // Pacing is exact, so arrival jitter may still meet a 429; it is retried after Retry-After.
    const approvals = client({ tier: 'bronze' }, bronze);
    await expect(approvals.approvals.list('100234')).resolves.toHaveProperty('employeeNumber');
    await expect(approvals.approvals.list('100234')).resolves.toHaveProperty('employeeNumber');
    const route = bronze.stats().routes['approvals.getApprovals'];
    expect((route?.requests ?? 0) - (route?.tooManyRequests ?? 0)).toBe(2);
  });
});
