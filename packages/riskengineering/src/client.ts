import {
  createOAuth2ServiceClient,
  createOffsetPaging,
  type OAuth2ServiceClientOptions,
  type OffsetCollection,
  type PagingOptions,
  type ServiceClient,
} from '@partner-apis/core';
import type { components, paths } from './generated/openapi.js';

/** One risk engineering grading record. Its fields are not published yet: the record is open. */
export type Grading = components['schemas']['Grading'];
/** One location record of the risk engineering service. Its fields are not published yet. */
export type RiskLocation = components['schemas']['RiskLocation'];

/** The scopes of the risk engineering service's tokens. */
export const RISK_ENGINEERING_SCOPES = ['Portal.Api', 'Portal.Api.RiskEngineering'] as const;

/**
 * Options of `createRiskEngineeringClient`: address, token endpoint and credentials, the paging
 * defaults of `list`, and the pipeline's timeouts, retries, rate limit, events, logger, `fetch`
 * and `userAgent`.
 */
export interface RiskEngineeringClientOptions extends OAuth2ServiceClientOptions, PagingOptions {}

/** A client of the risk engineering API. */
export interface RiskEngineeringClient {
  /** The gradings: `list` pages through all of them, `page` reads one page. */
  readonly gradings: OffsetCollection<Grading>;
  /** The customer's locations as risk engineering knows them. */
  readonly locations: OffsetCollection<RiskLocation>;
  /** The openapi-fetch client over the same pipeline, for anything else in the spec. */
  readonly raw: ServiceClient<paths>['raw'];
}

/**
 * Creates a client of the risk engineering API. Every option is checked here; a bad one throws
 * a `ConfigurationError` naming it. Tokens (scopes `Portal.Api Portal.Api.RiskEngineering`) are
 * fetched on the first call, cached and refreshed; the secondary subscription key takes over
 * when the primary is refused.
 *
 * @example
 * const risk = createRiskEngineeringClient({
 *   baseUrl: 'https://api.example.com',
 *   tokenUrl: 'https://auth.example.com/login/connect/token',
 *   credentials: {
 *     clientId: 'my-client',
 *     clientSecret: process.env.RISK_SECRET ?? '',
 *     subscriptionKeys: { primary: process.env.RISK_KEY ?? '' },
 *   },
 * });
 * for await (const grading of risk.gradings.list({ modifiedSince: new Date('2026-01-31') })) {
 *   console.log(grading['gradingId']);
 * }
 */
export function createRiskEngineeringClient(
  options: RiskEngineeringClientOptions,
): RiskEngineeringClient {
  const { raw } = createOAuth2ServiceClient<paths>(options, RISK_ENGINEERING_SCOPES);
  const paging = createOffsetPaging(options);
  return {
    gradings: paging.collection<Grading>('gradings', (query, init) =>
      raw.GET('/open/portal-api/riskengineering/Gradings', { params: { query }, ...init }),
    ),
    locations: paging.collection<RiskLocation>('locations', (query, init) =>
      raw.GET('/open/portal-api/riskengineering/Locations', { params: { query }, ...init }),
    ),
    raw,
  };
}
