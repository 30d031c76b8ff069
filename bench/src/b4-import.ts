import type * as Approvals from '@partner-apis/approvals';
import type * as Exposure from '@partner-apis/exposure';
import type * as Liability from '@partner-apis/liability';
import type * as RiskEngineering from '@partner-apis/riskengineering';
import type { Sandbox } from '@partner-apis/sandbox';
import type * as TransportUndici from '@partner-apis/transport-undici';
import type * as OpenapiFetch from 'openapi-fetch';

/** The packages B4 imports, and the first request each one makes. */
export const B4_IMPORTED = [
  'openapi-fetch',
  '@partner-apis/exposure',
  '@partner-apis/riskengineering',
  '@partner-apis/liability',
  '@partner-apis/approvals',
  '@partner-apis/transport-undici',
] as const;
export type B4Imported = (typeof B4_IMPORTED)[number];

export interface B4ImportInput {
  specifier: B4Imported;
  sandbox: Pick<Sandbox, 'urls' | 'credentials' | 'fixtures'>;
}

/** Wall and CPU milliseconds from before the import to after it, and to the first answer. */
export type B4ImportResult =
  | { importMs: number; firstRequestMs: number; importCpuMs: number; firstRequestCpuMs: number }
  | { unavailable: string };

type Modules = {
  'openapi-fetch': typeof OpenapiFetch;
  '@partner-apis/exposure': typeof Exposure;
  '@partner-apis/riskengineering': typeof RiskEngineering;
  '@partner-apis/liability': typeof Liability;
  '@partner-apis/approvals': typeof Approvals;
  '@partner-apis/transport-undici': typeof TransportUndici;
};

/**
 * The first request a user of each package makes, against the sandbox: a page of one record, a
 * quote search, the approvals of one employee (what openapi-fetch and the transport fetch too).
 * A portal client's first request also fetches its token. Request ids are fresh on every request,
 * as the approvals API refuses one it has seen.
 */
const firstRequests: {
  [Specifier in B4Imported]: (module: Modules[Specifier], input: B4ImportInput) => Promise<unknown>;
} = {
  'openapi-fetch': async ({ default: createClient }, { sandbox }) => {
    const { clientId, clientSecret } = sandbox.credentials.approvals;
    const client = createClient<Approvals.paths>({
      baseUrl: sandbox.urls.approvals,
      headers: { client_id: clientId, client_secret: clientSecret },
    });
    const { data } = await client.GET('/approvals', {
      params: {
        query: { employeeNumber: sandbox.fixtures.employeeWithApprovals },
        header: { 'X-Z-Request-Id': crypto.randomUUID() },
      },
    });
    if (data === undefined) throw new Error('openapi-fetch: the first request failed');
    return data;
  },
  '@partner-apis/exposure': ({ createExposureClient }, { sandbox }) =>
    createExposureClient({
      baseUrl: sandbox.urls.exposure,
      tokenUrl: sandbox.urls.tokenUrl,
      credentials: sandbox.credentials.exposure,
    }).locations.page({ limit: 1 }),
  '@partner-apis/riskengineering': ({ createRiskEngineeringClient }, { sandbox }) =>
    createRiskEngineeringClient({
      baseUrl: sandbox.urls.riskEngineering,
      tokenUrl: sandbox.urls.tokenUrl,
      credentials: sandbox.credentials.riskEngineering,
    }).gradings.page({ limit: 1 }),
  '@partner-apis/liability': ({ createLiabilityClient }, { sandbox }) =>
    createLiabilityClient({
      baseUrl: sandbox.urls.liability,
      credentials: sandbox.credentials.liability,
    }).quotes.search({}),
  '@partner-apis/approvals': ({ createApprovalsClient }, { sandbox }) => {
    const { tier, ...credentials } = sandbox.credentials.approvals;
    return createApprovalsClient({
      baseUrl: sandbox.urls.approvals,
      credentials,
      tier,
    }).approvals.list(sandbox.fixtures.employeeWithApprovals);
  },
  '@partner-apis/transport-undici': async ({ createUndiciFetch }, { sandbox }) => {
    const { clientId, clientSecret } = sandbox.credentials.approvals;
    const fetch = createUndiciFetch();
    const url = `${sandbox.urls.approvals}/approvals?employeeNumber=${sandbox.fixtures.employeeWithApprovals}`;
    const response = await fetch(url, {
      headers: {
        client_id: clientId,
        client_secret: clientSecret,
        'x-z-request-id': crypto.randomUUID(),
      },
    });
    if (!response.ok)
      throw new Error(`transport-undici: the first request answered ${response.status}`);
    return response.json();
  },
};

/**
 * In this fresh process, which has imported nothing of the packages yet: the time from before
 * `await import(specifier)` to after it, and to the first request's parsed answer.
 */
export async function run(raw: unknown): Promise<B4ImportResult> {
  const input = raw as B4ImportInput;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let module: unknown;
  try {
    module = await import(input.specifier);
  } catch (error) {
    return { unavailable: `${input.specifier}: ${(error as Error).message}` };
  }
  const imported = performance.now();
  const importCpu = process.cpuUsage(cpuBefore);
  const first = firstRequests[input.specifier] as (
    m: unknown,
    i: B4ImportInput,
  ) => Promise<unknown>;
  await first(module, input);
  const answered = performance.now();
  const answerCpu = process.cpuUsage(cpuBefore);
  const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
  return {
    importMs: imported - started,
    firstRequestMs: answered - started,
    importCpuMs: cpuMs(importCpu),
    firstRequestCpuMs: cpuMs(answerCpu),
  };
}
