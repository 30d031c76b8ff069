import { clientIdHeaders, type ClientCredentials } from '@partner-apis/auth';
import {
  checkCallOptions,
  createServiceClientFromOptions,
  expectData,
  type ClientOptions,
  type CustomRateLimit,
  type RateLimitTier,
  type ServiceClient,
} from '@partner-apis/core';
import { InvalidArgumentError } from '@partner-apis/errors';
import type { paths } from './generated/openapi.js';
import type { ApprovalsResult } from './types.js';

/**
 * The tier of the client application (`bronze` 1, `silver` 10, `gold` 100 calls per second),
 * or a rate of its own.
 */
export type ApprovalsTier = RateLimitTier | CustomRateLimit;

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

/** Options of one approvals call. */
export interface ApprovalsCallOptions {
  /** Aborts the call. */
  signal?: AbortSignal | undefined;
}

/** The outstanding approvals of the procurement system. */
export interface Approvals {
  /**
   * Lists the outstanding approvals of one employee, grouped into requisitions, invoices,
   * expense reports and contracts. An empty `employeeNumber` is refused before any request.
   *
   * @example
   * const result = await client.approvals.list('100234');
   * console.log(result.userFullname, result.contractApprovals?.length);
   */
  list(employeeNumber: string, options?: ApprovalsCallOptions): Promise<ApprovalsResult>;
}

/** The openapi-fetch client of the approvals spec; the pipeline sets `X-Z-Request-Id`. */
export type ApprovalsRaw = ServiceClient<paths>['raw'];

/** A client of the procurement approvals API. */
export interface ApprovalsClient {
  readonly approvals: Approvals;
  /**
   * Lists the outstanding approvals of one employee.
   *
   * @deprecated Use `approvals.list(employeeNumber)`; this alias stays for clients built on 0.1.
   * @example
   * const result = await client.getApprovals('100234');
   */
  getApprovals(employeeNumber: string, options?: ApprovalsCallOptions): Promise<ApprovalsResult>;
  /** The openapi-fetch client for anything else in the spec; errors are thrown, typed. */
  readonly raw: ApprovalsRaw;
}

const OPERATION = 'approvals.list';

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
  const { raw } = createServiceClientFromOptions<paths>(options, {
    auth: (credentials) => clientIdHeaders(credentials as unknown as ClientCredentials),
    rateLimit: options?.tier,
    optionNames: { rateLimit: 'tier' },
  });
  const approvals: Approvals = {
    async list(employeeNumber, callOptions) {
      const { signal } = checkCallOptions(callOptions, OPERATION);
      if (typeof employeeNumber !== 'string' || employeeNumber.trim() === '') {
        throw new InvalidArgumentError('employeeNumber', 'must be a non-empty string', OPERATION);
      }
      const query = { employeeNumber };
      return expectData(
        await raw.GET('/approvals', { params: { query }, signal }),
        'GET /approvals',
      );
    },
  };
  return { approvals, getApprovals: approvals.list, raw };
}
