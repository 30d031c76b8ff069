import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import { ApiError } from '@partner-apis/errors';
import type { components, paths } from './generated/openapi.js';

/** The approvals result: the employee and the four groups of outstanding approvals. */
export type ApprovalsResult = components['schemas']['ApprovalsResult'];

/** Options of `createApprovalsClient`. */
export interface ApprovalsClientOptions {
  /** Address of the environment, including the `/v1` segment, e.g. `https://host/v1`. */
  baseUrl: string;
  /** The client ID and secret issued on the procurement exchange portal. */
  credentials: { clientId: string; clientSecret: string };
  /** A `fetch` implementation; the global one by default. */
  fetch?: typeof globalThis.fetch;
}

/** A client of the procurement approvals API. */
export interface ApprovalsClient {
  /** Lists the outstanding approvals of one employee. Throws `ApiError` on any non-2xx status. */
  getApprovals(employeeNumber: string): Promise<ApprovalsResult>;
  /** The openapi-fetch client, for any operation of the spec. */
  readonly raw: Client<paths>;
}

/**
 * Creates a client of the procurement approvals API.
 *
 * @example
 * const client = createApprovalsClient({
 *   baseUrl: 'https://approvals.example.com/v1',
 *   credentials: { clientId: process.env.CLIENT_ID!, clientSecret: process.env.CLIENT_SECRET! },
 * });
 * const result = await client.getApprovals('100234');
 */
export function createApprovalsClient(options: ApprovalsClientOptions): ApprovalsClient {
  const baseFetch = options.fetch ?? globalThis.fetch;
  // Non-2xx responses become ApiError here, where the raw body text is still at hand.
  const fetchOrThrow = async (request: Request): Promise<Response> => {
    const response = await baseFetch(request);
    if (response.ok) return response;
    throw ApiError.fromResponseText(response, await response.text(), {
      method: request.method,
      url: request.url,
      requestId: request.headers.get('X-Z-Request-Id') ?? undefined,
    });
  };
  const raw = createClient<paths>({
    baseUrl: options.baseUrl,
    fetch: fetchOrThrow,
    headers: {
      client_id: options.credentials.clientId,
      client_secret: options.credentials.clientSecret,
    },
  });

  return {
    raw,
    async getApprovals(employeeNumber) {
      if (typeof employeeNumber !== 'string' || employeeNumber.trim() === '') {
        throw new TypeError('getApprovals: employeeNumber must be a non-empty string');
      }
      const { data } = await raw.GET('/approvals', {
        params: { query: { employeeNumber }, header: { 'X-Z-Request-Id': randomUUID() } },
      });
      if (data === undefined) {
        throw new ApiError({
          status: 200,
          code: 'unexpected_response',
          message: 'GET /approvals answered 200 with an empty body',
        });
      }
      return data;
    },
  };
}
