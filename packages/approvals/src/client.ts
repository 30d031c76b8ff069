import { clientIdHeaders, type ClientCredentials } from '@partner-apis/auth';
import {
  createServiceClient,
  type ApiPromise,
  type CallOptions,
  type ClientOptions,
  type CustomRateLimit,
  type ServiceClient,
} from '@partner-apis/core';
import { ConfigurationError } from '@partner-apis/errors';
import type { paths } from './generated/openapi.js';
import { rateLimitTiers, service } from './generated/operations.js';
import {
  createResources,
  type ApprovalsListParams,
  type ApprovalsResult,
  type Resources,
} from './generated/resources.js';

declare const __PACKAGE_VERSION__: string | undefined;
/** This package, as the `User-Agent` of its requests names it; the build writes in its version. */
const PACKAGE = {
  name: '@partner-apis/approvals',
  version: typeof __PACKAGE_VERSION__ === 'string' ? __PACKAGE_VERSION__ : undefined,
};

/** A tier name of the approvals spec (`x-rate-limit-tiers`): `bronze`, `silver`, `gold`. */
export type ApprovalsTierName = keyof typeof rateLimitTiers;

/**
 * The tier of the client application (`bronze` 1, `silver` 10, `gold` 100 calls per second, as
 * the spec lists them), or a rate of its own.
 */
export type ApprovalsTier = ApprovalsTierName | CustomRateLimit;

/** Options of `createApprovalsClient`; every pipeline option of `ClientOptions` applies too. */
export interface ApprovalsClientOptions extends ClientOptions {
  /** Address of the environment, including the `/v1` segment, e.g. `https://host/v1`. */
  baseUrl: string;
  /** The client ID and secret issued on the procurement exchange portal. */
  credentials: ClientCredentials;
  /**
   * The tier chosen when access was requested: the client then never calls faster than the
   * gateway allows. Without it, calls are not paced and a 429 is retried after `Retry-After`.
   */
  tier?: ApprovalsTier | undefined;
}

/** The query of `approvals.list`, as the spec declares it (`employeeNumber`). */
export type ApprovalsQuery = ApprovalsListParams;

/** Options of one approvals call. */
export type ApprovalsCallOptions = CallOptions;

/** The outstanding approvals of the procurement system. */
export interface Approvals {
  /**
   * Lists the outstanding approvals of one employee, grouped into requisitions, invoices,
   * expense reports and contracts.
   *
   * The employee is the spec's query (`{ employeeNumber }`), or the employee number alone.
   *
   * @example
   * const result = await client.approvals.list('100234');
   * console.log(result.userFullname, result.contractApprovals?.length);
   */
  list(
    employee: string | ApprovalsQuery,
    options?: ApprovalsCallOptions,
  ): ApiPromise<ApprovalsResult>;
}

/** The openapi-fetch client of the approvals spec; the pipeline sets `X-Z-Request-Id`. */
export type ApprovalsRaw = ServiceClient<paths, typeof service>['raw'];

/** A client of the procurement approvals API: every resource of the spec. */
export interface ApprovalsClient extends Omit<Resources, 'approvals'> {
  readonly approvals: Approvals;
  /**
   * Lists the outstanding approvals of one employee.
   *
   * @deprecated Use `approvals.list(employeeNumber)`, which does the same.
   * @example
   * const result = await client.getApprovals('100234');
   */
  readonly getApprovals: Approvals['list'];
  /** The openapi-fetch client for anything else in the spec; errors are thrown, typed. */
  readonly raw: ApprovalsRaw;
}

const TIER_NAMES = Object.keys(rateLimitTiers).join(', ');

/** The rate of a tier name of the spec; a custom rate is left to the pipeline to check. */
function tierRate(tier: unknown): CustomRateLimit | undefined {
  if (tier === undefined || (typeof tier === 'object' && tier !== null)) {
    return tier as CustomRateLimit | undefined;
  }
  if (typeof tier === 'string' && Object.hasOwn(rateLimitTiers, tier)) {
    return { requestsPerSecond: rateLimitTiers[tier as ApprovalsTierName] };
  }
  throw new ConfigurationError(
    'tier',
    `must be ${TIER_NAMES} or { requestsPerSecond } (got ${String(tier)})`,
  );
}

/** The options of this client beyond those of every client. */
const APPROVALS_OPTIONS: Record<
  Exclude<keyof ApprovalsClientOptions, keyof ClientOptions>,
  true
> = { baseUrl: true, credentials: true, tier: true };

/**
 * Creates a client of the procurement approvals API: the `client_id` and `client_secret`
 * headers, a fresh `X-Z-Request-Id` on every request, the tier's rate, retries and typed
 * errors. Options are checked here: a bad one is a `ConfigurationError` naming it.
 *
 * @example
 * const client = createApprovalsClient({
 *   baseUrl: 'https://approvals.example.com/v1',
 *   credentials: { clientId: 'my-client', clientSecret: process.env.APPROVALS_SECRET ?? '' },
 *   tier: 'silver',
 * });
 * const result = await client.approvals.list('100234');
 */
export function createApprovalsClient(options: ApprovalsClientOptions): ApprovalsClient {
  const client = createServiceClient<paths, typeof service>(options, {
    service,
    auth: (credentials) => clientIdHeaders(credentials as unknown as ClientCredentials),
    rateLimit: tierRate(options?.tier),
    optionNames: { rateLimit: 'tier' },
    serviceOptions: APPROVALS_OPTIONS,
    package: PACKAGE,
  });
  const resources = createResources(client);
  const approvals: Approvals = {
    // The employee number alone is how every caller names one employee; the spec's params
    // object takes the parameters a later spec may add.
    list: (employee, callOptions) =>
      resources.approvals.list(
        typeof employee === 'object' && employee !== null ? employee : { employeeNumber: employee },
        callOptions,
      ),
  };
  return { ...resources, approvals, getApprovals: approvals.list, raw: client.raw };
}
