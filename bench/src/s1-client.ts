import { inspect } from 'node:util';
import type * as Approvals from '@partner-apis/approvals';
import type * as Exposure from '@partner-apis/exposure';
import type * as Liability from '@partner-apis/liability';
import type * as RiskEngineering from '@partner-apis/riskengineering';
import type { Sandbox } from '@partner-apis/sandbox';
import { loadOptional } from './optional-packages.js';
import { findSecrets } from './secret-scan.js';

export interface S1ClientInput {
  sandbox: Pick<Sandbox, 'urls' | 'credentials' | 'fixtures'>;
  /** Data requests (every attempt, token requests not counted) after which the loop stops. */
  targetRequests: number;
  /** The loop stops at this point whatever it has reached. */
  deadlineMs: number;
  workers: number;
  sizes: { exposureLocations: number; gradings: number };
}

/** Calls and successes of one operation. */
export interface OperationCount {
  calls: number;
  succeeded: number;
  firstError: string | undefined;
  /** Failures by error class and message, with the numbers in messages masked. */
  errors: Record<string, number>;
}

export type S1ClientResult =
  | {
      seconds: number;
      dataRequests: number;
      tokenRequests: number;
      attempts: number;
      firstAttempts: number;
      operations: Record<string, OperationCount>;
      listsCompleted: number;
      recordsLost: number;
      recordsDuplicated: number;
      postsSent: number;
      postsSentTwice: number;
      keyFailovers: number;
      /** Data requests sent when the primary keys were revoked; undefined if never. */
      revokedAt: number | undefined;
      tokenRefreshes: number;
      scannedTexts: number;
      secretHits: number;
      secretHitExamples: string[];
    }
  | { unavailable: string };

type Operation = () => Promise<void>;

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

type ExposureModule = typeof Exposure;
type RiskEngineeringModule = typeof RiskEngineering;
type LiabilityModule = typeof Liability;
type ApprovalsModule = typeof Approvals;

async function loadClients() {
  const exposure = await loadOptional<ExposureModule>('@partner-apis/exposure');
  const risk = await loadOptional<RiskEngineeringModule>('@partner-apis/riskengineering');
  const liability = await loadOptional<LiabilityModule>('@partner-apis/liability');
  const approvals = await loadOptional<ApprovalsModule>('@partner-apis/approvals');
  if (typeof exposure === 'string') return exposure;
  if (typeof risk === 'string') return risk;
  if (typeof liability === 'string') return liability;
  if (typeof approvals === 'string') return approvals;
  return { exposure, risk, liability, approvals };
}

/**
 * The soak: mixed calls through all four clients against a faulty sandbox until
 * `targetRequests` data requests have been sent (or the deadline passes), with every log line,
 * event and error kept for the secret scan, and every POST body counted as it leaves.
 */
export async function run(raw: unknown): Promise<S1ClientResult> {
  const input = raw as S1ClientInput;
  const modules = await loadClients();
  if (typeof modules === 'string') return { unavailable: modules };
  const { urls, credentials, fixtures } = input.sandbox;

  const texts: string[] = [];
  const counts = { data: 0, token: 0, attempts: 0, firstAttempts: 0, failovers: 0, refreshes: 0 };
  const postBodies = new Map<string, number>();

  // Sees every attempt as it leaves: the only place a POST sent twice cannot hide.
  const countingFetch = async (resource: string | URL | Request, init?: RequestInit) => {
    const url =
      typeof resource === 'string'
        ? resource
        : resource instanceof URL
          ? resource.href
          : resource.url;
    const method = (
      init?.method ?? (resource instanceof Request ? resource.method : 'GET')
    ).toUpperCase();
    if (url.startsWith(urls.tokenUrl)) counts.token++;
    else {
      counts.data++;
      if (method === 'POST') {
        const body = init?.body;
        const text =
          typeof body === 'string'
            ? body
            : body instanceof ArrayBuffer || body instanceof Uint8Array
              ? new TextDecoder().decode(body)
              : `${url} ${counts.data}`;
        postBodies.set(`${url} ${text}`, (postBodies.get(`${url} ${text}`) ?? 0) + 1);
      }
    }
    return fetch(resource, init);
  };
  const keep = (kind: string) => (message: string, details?: Record<string, unknown>) =>
    texts.push(`${kind} ${message} ${inspect(details, { depth: 6 })}`);
  const logger = {
    debug: keep('debug'),
    info: keep('info'),
    warn: keep('warn'),
    error: keep('error'),
  };
  const events = {
    onRequest(event: { attempt: number }) {
      counts.attempts++;
      if (event.attempt === 1) counts.firstAttempts++;
      texts.push(`request ${inspect(event, { depth: 6 })}`);
    },
    onResponse: (event: unknown) => texts.push(`response ${inspect(event, { depth: 6 })}`),
    onRetry: (event: unknown) => texts.push(`retry ${inspect(event, { depth: 6 })}`),
    onTokenRefresh(event: unknown) {
      counts.refreshes++;
      texts.push(`token ${inspect(event, { depth: 6 })}`);
    },
    onKeyFailover(event: unknown) {
      counts.failovers++;
      texts.push(`failover ${inspect(event, { depth: 6 })}`);
    },
  };
  const common = { fetch: countingFetch, logger, events };

  const exposure = modules.exposure.createExposureClient({
    baseUrl: urls.exposure,
    tokenUrl: urls.tokenUrl,
    credentials: credentials.exposure,
    ...common,
  });
  const risk = modules.risk.createRiskEngineeringClient({
    baseUrl: urls.riskEngineering,
    tokenUrl: urls.tokenUrl,
    credentials: credentials.riskEngineering,
    ...common,
  });
  const liability = modules.liability.createLiabilityClient({
    baseUrl: urls.liability,
    credentials: credentials.liability,
    ...common,
  });
  const { tier, ...approvalsCredentials } = credentials.approvals;
  const approvals = modules.approvals.createApprovalsClient({
    baseUrl: urls.approvals,
    credentials: approvalsCredentials,
    tier,
    // S1 answers every 19th approvals call with a 300 kB body: it must end as response_too_large.
    maxResponseBytes: 256 * 1024,
    ...common,
  });

  const operations: Record<string, OperationCount> = {};
  const paging = { completed: 0, lost: 0, duplicated: 0 };
  let sellers = 0;

  const counted =
    (name: string, operation: Operation): Operation =>
    async () => {
      const count = (operations[name] ??= {
        calls: 0,
        succeeded: 0,
        firstError: undefined,
        errors: {},
      });
      count.calls++;
      try {
        await operation();
        count.succeeded++;
      } catch (error) {
        count.firstError ??= describe(error);
        // Ports, positions and ids differ per call; masking them groups the same failure.
        const kind = describe(error).replace(/\d+/g, 'N').slice(0, 140);
        count.errors[kind] = (count.errors[kind] ?? 0) + 1;
        texts.push(describe(error), String(error), inspect(error, { depth: 6 }));
        try {
          texts.push(JSON.stringify(error));
        } catch {
          texts.push('(error not serialisable)');
        }
      }
    };
  const listAll =
    (list: () => AsyncIterable<Record<string, unknown>>, expected: number) => async () => {
      const seen = new Set<string>();
      let received = 0;
      for await (const item of list()) {
        seen.add(JSON.stringify(item));
        received++;
      }
      paging.completed++;
      paging.duplicated += received - seen.size;
      paging.lost += Math.max(0, expected - seen.size);
    };
  const offset = () => Math.floor(Math.random() * 1900);

  const mix: Operation[] = [
    counted('exposure locations.page', async () => {
      await exposure.locations.page({ limit: 100, offset: offset() });
    }),
    counted('risk engineering gradings.page', async () => {
      await risk.gradings.page({ limit: 100, offset: offset() });
    }),
    counted('liability seller + quote + get', async () => {
      const n = ++sellers;
      const seller = await liability.sellers.create({
        name: `Soak Seller ${n} GmbH`,
        address: { country: 'DE' },
      });
      const quote = await liability.quotes.create({
        productId: 'QuoteA3P',
        policyLines: [
          {
            id: 'liability',
            declarativeQuestionAnswers: { countryOfSales: 'EU-ASIA', territoryOfSales: 'NON-US' },
          },
        ],
        insureds: [{ sellerId: seller['sellerId'] }],
      });
      await liability.quotes.get(String(quote['quoteId']));
    }),
    counted('risk engineering locations.page', async () => {
      await risk.locations.page({ limit: 100, offset: offset() });
    }),
    counted('liability quotes.search', async () => {
      await liability.quotes.search({});
    }),
    counted(
      'exposure locations.list',
      listAll(
        () => exposure.locations.list({ pageSize: 512, prefetch: 4 }),
        input.sizes.exposureLocations,
      ),
    ),
    counted(
      'risk engineering gradings.list',
      listAll(() => risk.gradings.list({ pageSize: 512, prefetch: 4 }), input.sizes.gradings),
    ),
  ];
  const approvalsCall = counted('approvals approvals.list', async () => {
    await approvals.approvals.list(fixtures.employeeWithApprovals);
  });

  const started = performance.now();
  const stopAt = started + input.deadlineMs;
  const going = () => counts.data < input.targetRequests && performance.now() < stopAt;
  let revoked = false;
  let revokedAt: number | undefined;
  const revokeMidway = async () => {
    if (revoked || counts.data < input.targetRequests / 2) return;
    revoked = true;
    for (const service of ['exposure', 'riskEngineering']) {
      const response = await fetch(`${urls.admin}/keys/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ service, key: 'primary' }),
      });
      if (!response.ok)
        throw new Error(`revoking the ${service} primary key failed: ${response.status}`);
    }
    revokedAt = counts.data;
  };

  let next = 0;
  const worker = async () => {
    while (going()) {
      // Lists are heavy: one in every twenty operations, alternating between the two.
      const i = next++;
      const pick = i % 20 === 19 ? 5 + (Math.floor(i / 20) % 2) : i % 5;
      await (mix[pick] as Operation)();
      await revokeMidway();
    }
  };
  const approvalsWorker = async () => {
    while (going()) await approvalsCall();
  };
  await Promise.all([
    ...Array.from({ length: input.workers }, worker),
    approvalsWorker(),
    approvalsWorker(),
  ]);
  const seconds = (performance.now() - started) / 1000;

  const secrets = [
    credentials.exposure.clientSecret,
    credentials.exposure.subscriptionKeys.primary,
    credentials.exposure.subscriptionKeys.secondary,
    credentials.riskEngineering.clientSecret,
    credentials.riskEngineering.subscriptionKeys.primary,
    credentials.riskEngineering.subscriptionKeys.secondary,
    credentials.liability.clientSecret,
    credentials.approvals.clientSecret,
  ];
  const hits = findSecrets(texts, secrets, [
    credentials.exposure,
    credentials.riskEngineering,
    credentials.liability,
  ]);

  return {
    seconds,
    dataRequests: counts.data,
    tokenRequests: counts.token,
    attempts: counts.attempts,
    firstAttempts: counts.firstAttempts,
    operations,
    listsCompleted: paging.completed,
    recordsLost: paging.lost,
    recordsDuplicated: paging.duplicated,
    postsSent: [...postBodies.values()].reduce((a, b) => a + b, 0),
    postsSentTwice: [...postBodies.values()].filter((n) => n > 1).length,
    keyFailovers: counts.failovers,
    revokedAt,
    tokenRefreshes: counts.refreshes,
    scannedTexts: texts.length,
    secretHits: hits.count,
    secretHitExamples: hits.examples,
  };
}
