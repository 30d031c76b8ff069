import type { SandboxStats } from '@partner-apis/sandbox';
import type { B3ClientInput, B3ClientResult } from './b3-client.js';
import { runTask, startService } from './processes.js';
import type { Section } from './report.js';
import type { SandboxHostInfo } from './sandbox-host.js';
import type { Scenario } from './scenario.js';

const CALLS = 1000;
const TOKEN_ROUTE = 'auth.requestToken';

function unavailable(reason: string): Section {
  return {
    id: 'B3',
    title: 'Token single flight',
    method: `${CALLS.toLocaleString('en')} concurrent calls on a cold client; token requests counted by the sandbox.`,
    tables: [],
    goals: [
      {
        name: 'B3 token requests for 1,000 cold calls',
        target: '= 1',
        measured: '—',
        met: undefined,
      },
    ],
    notes: [`not available — ${reason}`],
  };
}

async function run(): Promise<Section> {
  const sandbox = await startService<SandboxHostInfo>(
    'sandbox-host',
    { validateResponses: false },
    {
      timeoutMs: 20_000,
    },
  );
  try {
    if (sandbox.info.unavailable !== undefined) return unavailable(sandbox.info.unavailable);
    const input: B3ClientInput = { sandbox: sandbox.info, calls: CALLS };
    const result = await runTask<B3ClientResult>('b3-client', input, { timeoutMs: 60_000 });
    if ('unavailable' in result) return unavailable(result.unavailable);
    const stats = await sandbox.call<SandboxStats>('stats');
    const token = stats.routes[TOKEN_ROUTE];
    const tokenRequests = token?.requests ?? Number.NaN;
    return {
      id: 'B3',
      title: 'Token single flight',
      method: `${CALLS.toLocaleString('en')} concurrent calls (\`locations.page({ limit: 1 })\`) on a cold ${result.driver} in a fresh process; the sandbox counts the requests to its token endpoint.`,
      tables: [
        {
          columns: [
            'client',
            'calls',
            'failed calls',
            'token requests',
            'tokens issued',
            'data requests',
          ],
          rows: [
            [
              result.driver,
              String(result.calls),
              String(result.failures),
              String(tokenRequests),
              String(token?.tokenIssues ?? '—'),
              String(stats.totals.requests - (token?.requests ?? 0)),
            ],
          ],
        },
      ],
      goals: [
        {
          name: `B3 token requests for 1,000 cold calls (${result.driver})`,
          target: '= 1',
          measured: String(tokenRequests),
          met: tokenRequests === 1,
        },
      ],
      notes: result.firstFailure === undefined ? [] : [`first failure: ${result.firstFailure}`],
    };
  } finally {
    await sandbox.stop();
  }
}

export const b3SingleFlight: Scenario = { id: 'B3', run };
