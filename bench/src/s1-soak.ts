import type { SandboxStats } from '@partner-apis/sandbox';
import { runTask, startService } from './processes.js';
import type { Goal, Section } from './report.js';
import type { OperationCount, S1ClientInput, S1ClientResult } from './s1-client.js';
import type { SandboxHostInfo } from './sandbox-host.js';
import { fixed, type RunOptions, type Scenario } from './scenario.js';

const SIZES = { exposureLocations: 2000, riskLocations: 2000, gradings: 1500 };
/** A gateway's maintenance page, answered with a 2xx as some proxies do. */
const HTML_OK = {
  status: 200,
  body: '<!doctype html><title>Maintenance</title><p>Back soon.</p>',
  headers: { 'content-type': 'text/html' },
};
const FAULTS = {
  every: [
    { n: 7, action: 503 },
    { n: 11, action: 'html502' },
    { n: 13, action: 'truncate' },
    { n: 17, action: HTML_OK },
  ],
};
/**
 * A body past the approvals client's `maxResponseBytes` (256 KiB in s1-client.ts), on that
 * service only: its results are small, so the cap never cuts a real one.
 */
const OVERSIZE = {
  status: 200,
  body: JSON.stringify({ padding: 'x'.repeat(300_000) }),
  headers: { 'content-type': 'application/json' },
};
const APPROVALS_FAULTS = { every: [...FAULTS.every, { n: 19, action: OVERSIZE }] };
/** A token endpoint slower than the data routes. */
const SLOW_TOKEN_MS = 300;
const SERVICES = ['exposure', 'riskEngineering', 'liability', 'approvals'];
const TOKEN_LIFETIME_SECONDS = 3;

const METHOD = [
  'Mixed calls through the exposure, risk engineering, liability and approvals clients (48 workers, two more on approvals) against the sandbox in its own process,',
  'with faults on every data route (503 every 7th request, HTML 502 every 11th, truncated body every 13th, an HTML page with 200 every 17th, on approvals a body past its size limit every 19th), a token endpoint that takes 300 ms, tokens that live',
  `${TOKEN_LIFETIME_SECONDS} s, and the primary subscription keys revoked halfway; the approvals client is configured with the tier the sandbox enforces (gold).`,
  "POST bodies are counted as they leave the clients' fetch; every log line, event and error (message, String, JSON, util.inspect) is scanned for the configured secrets and the Basic credentials built from them.",
].join(' ');

function unavailable(reason: string): Section {
  return {
    id: 'S1',
    title: 'Soak',
    method: METHOD,
    tables: [],
    goals: [],
    notes: [`not available — ${reason}`],
  };
}

/** The most frequent failures, one line each: how often, in which operation, what. */
function topErrors(operations: Record<string, OperationCount>): string[] {
  return Object.entries(operations)
    .flatMap(([name, op]) => Object.entries(op.errors).map(([error, n]) => ({ name, error, n })))
    .sort((a, b) => b.n - a.n)
    .slice(0, 10)
    .map(({ name, error, n }) => `${n} × ${name}: ${error}`);
}

function zeroGoal(name: string, value: number): Goal {
  return { name, target: '= 0', measured: String(value), met: value === 0 };
}

async function run(options: RunOptions): Promise<Section> {
  const target = options.quick ? 4000 : 20_000;
  const sandbox = await startService<SandboxHostInfo>(
    'sandbox-host',
    {
      sizes: SIZES,
      tokenLifetimeSeconds: TOKEN_LIFETIME_SECONDS,
      credentials: { approvals: { tier: 'gold' } },
      validateResponses: false,
    },
    { timeoutMs: 20_000 },
  );
  try {
    if (sandbox.info.unavailable !== undefined) return unavailable(sandbox.info.unavailable);
    for (const service of SERVICES) {
      const faults = service === 'approvals' ? APPROVALS_FAULTS : FAULTS;
      await sandbox.call('fault', `${service}.*`, faults);
    }
    await sandbox.call('fault', 'auth.*', { latencyMs: SLOW_TOKEN_MS });
    const input: S1ClientInput = {
      sandbox: sandbox.info as S1ClientInput['sandbox'],
      targetRequests: target,
      deadlineMs: options.quick ? 30_000 : 60_000,
      workers: 48,
      sizes: SIZES,
    };
    const result = await runTask<S1ClientResult>('s1-client', input, { timeoutMs: 130_000 });
    if ('unavailable' in result) return unavailable(result.unavailable);
    const stats = await sandbox.call<SandboxStats>('stats');
    const approvals429 = Object.entries(stats.routes)
      .filter(([route]) => route.startsWith('approvals.'))
      .reduce((sum, [, route]) => sum + route.tooManyRequests, 0);

    const operations = Object.entries(result.operations);
    const calls = operations.reduce((sum, [, op]) => sum + op.calls, 0);
    const succeeded = operations.reduce((sum, [, op]) => sum + op.succeeded, 0);
    const percent = (part: number, whole: number) => `${fixed((part / whole) * 100, 1)} %`;
    const summary = [
      ['duration', `${fixed(result.seconds, 1)} s`],
      ['data requests sent (every attempt)', String(result.dataRequests)],
      ['token requests sent', String(result.tokenRequests)],
      ['requests the sandbox answered', String(stats.totals.requests)],
      ['calls / succeeded', `${calls} / ${succeeded} (${percent(succeeded, calls)})`],
      ['attempts per request', fixed(result.attempts / result.firstAttempts, 3)],
      ['paged lists completed', String(result.listsCompleted)],
      ['records lost while paging', String(result.recordsLost)],
      ['records duplicated while paging', String(result.recordsDuplicated)],
      ['POSTs sent / sent twice', `${result.postsSent} / ${result.postsSentTwice}`],
      ['429s at the approvals tier', String(approvals429)],
      [
        'primary keys revoked after / key failovers reported',
        `${result.revokedAt ?? 'never'} requests / ${result.keyFailovers}`,
      ],
      ['token refreshes reported', String(result.tokenRefreshes)],
      ['texts scanned for secrets / hits', `${result.scannedTexts} / ${result.secretHits}`],
    ];
    return {
      id: 'S1',
      title: 'Soak',
      method: METHOD,
      tables: [
        { columns: ['measure', 'value'], rows: summary },
        {
          columns: ['operation', 'calls', 'succeeded', 'success', 'first error'],
          rows: operations.map(([name, op]) => [
            name,
            String(op.calls),
            String(op.succeeded),
            percent(op.succeeded, op.calls),
            op.firstError ?? '',
          ]),
        },
      ],
      goals: [
        zeroGoal('S1 records lost while paging', result.recordsLost),
        zeroGoal('S1 records duplicated while paging', result.recordsDuplicated),
        zeroGoal('S1 POSTs sent twice', result.postsSentTwice),
        zeroGoal('S1 429s at the approvals tier', approvals429),
        zeroGoal('S1 secrets in logs, events and errors', result.secretHits),
      ],
      notes: [
        ...topErrors(result.operations),
        ...result.secretHitExamples.map((example) => `secret found (masked): ${example}`),
      ],
    };
  } finally {
    await sandbox.stop();
  }
}

export const s1Soak: Scenario = { id: 'S1', run };
