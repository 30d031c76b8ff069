import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getApprovals } from './sandbox.fixture.js';
import { APPROVALS_TIERS, type ApprovalsTier } from './credentials.js';
import { openapiDocument as approvalsDocument } from './generated/approvals.document.js';
import { startSandbox, type Sandbox } from './index.js';

const LISTS = [
  'requisitionApprovals',
  'invoiceApprovals',
  'expenseReportApprovals',
  'contractApprovals',
] as const;

type Result = Record<(typeof LISTS)[number], unknown[]> & {
  employeeNumber: string;
  userFullname: string;
};

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
afterEach(() => expect(sb.stats().responseViolations).toEqual([]));

async function approvalsOf(sandbox: Sandbox, employeeNumber: string): Promise<Result> {
  const response = await getApprovals(sandbox, employeeNumber);
  expect(response.status).toBe(200);
  return (await response.json()) as Result;
}

describe('approvals per employee', () => {
  it('gives an employee approvals of every kind, the same on every call', async () => {
    const employee = sb.fixtures.employeeWithApprovals;
    const result = await approvalsOf(sb, employee);
    expect(result.employeeNumber).toBe(employee);
    expect(result.userFullname).toMatch(/^\S+ \S+$/);
    for (const list of LISTS) expect(result[list].length).toBeGreaterThan(0);
    expect(result.contractApprovals[0]).toMatchObject({
      approvalId: expect.any(Number),
      approvalCreatedDate: expect.stringMatching(/[+-]\d{2}:\d{2}$/),
      contractDetails: {
        contactStartDate: expect.any(String),
        contactEndDate: expect.any(String),
      },
    });
    expect(await approvalsOf(sb, employee)).toEqual(result);
  });

  it('gives different employees different approvals', async () => {
    const a = await approvalsOf(sb, '200001');
    const b = await approvalsOf(sb, '200002');
    expect(a.requisitionApprovals).not.toEqual(b.requisitionApprovals);
  });

  it('has an employee with nothing outstanding, and takes others from the options', async () => {
    const [nobody] = sb.fixtures.employeesWithNothingOutstanding;
    const result = await approvalsOf(sb, nobody!);
    for (const list of LISTS) expect(result[list]).toEqual([]);

    const custom = await startSandbox({ employeesWithNothingOutstanding: ['E-1'] });
    try {
      const empty = await approvalsOf(custom, 'E-1');
      for (const list of LISTS) expect(empty[list]).toEqual([]);
    } finally {
      await custom.close();
    }
  });
});

describe('tracing headers', () => {
  it('refuses a reused X-Z-Request-Id, as the liability service does', async () => {
    const headers = { 'x-z-request-id': 'approvals-request-1' };
    expect((await getApprovals(sb, '100234', headers)).status).toBe(200);
    const reused = await getApprovals(sb, '100234', headers);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({
      code: 'data_validation',
      causes: [{ code: 'duplicate', field: '/X-Z-Request-Id', message: expect.any(String) }],
    });
  });
});

/**
 * A client in a process of its own: it sends `count` approvals calls at once when it reads a
 * line on stdin, and prints the statuses it got.
 */
function clientProcess(sandbox: Sandbox, count: number) {
  const { clientId, clientSecret } = sandbox.credentials.approvals;
  const script = `
    const { randomUUID } = await import('node:crypto');
    process.stdout.write('ready\\n');
    await new Promise((resolve) => process.stdin.once('data', resolve));
    const calls = Array.from({ length: ${count} }, () =>
      fetch(process.env.URL, { headers: {
        client_id: process.env.ID, client_secret: process.env.SECRET, 'x-z-request-id': randomUUID(),
      } }).then((r) => r.status));
    process.stdout.write(JSON.stringify(await Promise.all(calls)));
    process.exit(0);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: {
      ...process.env,
      URL: `${sandbox.urls.approvals}/approvals?employeeNumber=100234`,
      ID: clientId,
      SECRET: clientSecret,
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  const ready = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (output.startsWith('ready\n')) resolve();
    }),
  );
  const statuses = once(child, 'exit').then(
    () => JSON.parse(output.slice('ready\n'.length)) as number[],
  );
  return { ready, go: () => child.stdin.end('go\n'), statuses };
}

describe('tier limit', () => {
  it('knows the tiers of the spec, by name and rate', () => {
    // The tier type is written out; this fails when the spec's x-rate-limit-tiers names differ.
    const names: Record<ApprovalsTier, true> = { bronze: true, silver: true, gold: true };
    expect(Object.keys(APPROVALS_TIERS).sort()).toEqual(Object.keys(names).sort());
    expect(APPROVALS_TIERS).toEqual({ bronze: 1, silver: 10, gold: 100 });
  });

  it('counts the calls of every client process against one tier, in the sandbox', async () => {
    const bronze = await startSandbox({ credentials: { approvals: { tier: 'bronze' } } });
    try {
      const clients = [clientProcess(bronze, 2), clientProcess(bronze, 2)];
      await Promise.all(clients.map((c) => c.ready));
      for (const c of clients) c.go();
      const statuses = (await Promise.all(clients.map((c) => c.statuses))).flat().sort();
      // Four calls within a second from two processes: the bronze tier admits one of them.
      expect(statuses).toEqual([200, 429, 429, 429]);
      const route = bronze.stats().routes['approvals.getApprovals'];
      expect(route?.requests).toBe(4);
      expect(route?.tooManyRequests).toBe(3);
    } finally {
      await bronze.close();
    }
  });

  it('answers 429 with Retry-After once a bronze client calls twice within a second', async () => {
    const bronze = await startSandbox({ credentials: { approvals: { tier: 'bronze' } } });
    try {
      expect((await getApprovals(bronze, '100234')).status).toBe(200);
      const limited = await getApprovals(bronze, '100234');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('1');
      expect(await limited.json()).toMatchObject({
        code: 'too_many_requests',
        message: expect.stringContaining('bronze'),
        correlationId: expect.any(String),
      });
      expect(bronze.stats().routes['approvals.getApprovals']?.tooManyRequests).toBe(1);

      await delay(1000);
      expect((await getApprovals(bronze, '100234')).status).toBe(200);
    } finally {
      await bronze.close();
    }
  });

  it('lets a silver client make ten calls in a second, not eleven', async () => {
    const silver = await startSandbox({ credentials: { approvals: { tier: 'silver' } } });
    try {
      // Sent at once, so all eleven arrive within the same second.
      const responses = await Promise.all(
        Array.from({ length: 11 }, () => getApprovals(silver, '100234')),
      );
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([...Array(10).fill(200), 429]);
    } finally {
      await silver.close();
    }
  });

  it('takes the rate of a tier from an approvals spec given at run time', async () => {
    const document = structuredClone(approvalsDocument) as { info: Record<string, unknown> };
    document.info['x-rate-limit-tiers'] = { bronze: 2, silver: 10, gold: 100 };
    const bronze = await startSandbox({
      credentials: { approvals: { tier: 'bronze' } },
      specs: { approvals: document },
    });
    try {
      const responses = await Promise.all(
        Array.from({ length: 3 }, () => getApprovals(bronze, '100234')),
      );
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 429]);
      const limited = responses.find((r) => r.status === 429);
      expect(await limited?.json()).toMatchObject({
        message: 'The bronze tier allows 2 calls per second.',
      });
    } finally {
      await bronze.close();
    }
  });

  it('does not count refused credentials against the tier', async () => {
    const bronze = await startSandbox({ credentials: { approvals: { tier: 'bronze' } } });
    try {
      expect((await getApprovals(bronze, '100234', { client_secret: 'wrong' })).status).toBe(401);
      expect((await getApprovals(bronze, '100234')).status).toBe(200);
    } finally {
      await bronze.close();
    }
  });
});
