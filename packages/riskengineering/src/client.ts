import {
  createServiceClient,
  oauth2Service,
  type OAuth2ServiceClientOptions,
  type PagingOptions,
  type ServiceClient,
} from '@partner-apis/core';
import { PAGING_OPTION_NAMES } from '@partner-apis/core/internal';
import type { operations as Operations, paths } from './generated/openapi.js';
import { oauth2Scopes, service } from './generated/operations.js';
import { createResources, type Resources } from './generated/resources.js';

declare const __PACKAGE_VERSION__: string | undefined;
/** This package, as the `User-Agent` of its requests names it; the build writes in its version. */
const PACKAGE = {
  name: '@partner-apis/riskengineering',
  version: typeof __PACKAGE_VERSION__ === 'string' ? __PACKAGE_VERSION__ : undefined,
};

/** The query parameters of the gradings read, as the spec declares them. */
export type GradingsQuery = NonNullable<Operations['listGradings']['parameters']['query']>;
/** The query parameters of the locations read, as the spec declares them. */
export type RiskLocationsQuery = NonNullable<
  Operations['listRiskLocations']['parameters']['query']
>;
/** The gradings: `list` pages through all of them, `page` reads one page. */
export type Gradings = Resources['gradings'];
/** The customer's locations as risk engineering knows them. */
export type RiskLocations = Resources['locations'];

/** The scopes of the risk engineering service's tokens, from the spec. */
export const RISK_ENGINEERING_SCOPES = oauth2Scopes;

/**
 * Options of `createRiskEngineeringClient`: address, token endpoint and credentials, the paging
 * defaults of `list`, and the pipeline's timeouts, retries, rate limit, events, logger, `fetch`
 * and `userAgent`.
 */
export interface RiskEngineeringClientOptions extends OAuth2ServiceClientOptions, PagingOptions {}

/**
 * A client of the risk engineering API: one member per resource of the spec (`gradings`,
 * `locations`), and `raw`.
 */
export interface RiskEngineeringClient extends Resources {
  /** The openapi-fetch client over the same pipeline, for anything else in the spec. */
  readonly raw: ServiceClient<paths, typeof service>['raw'];
}

/**
 * Creates a client of the risk engineering API. Every option is checked here; a bad one throws
 * a `ConfigurationError` naming it. Tokens (the spec's scopes, `Portal.Api
 * Portal.Api.RiskEngineering`) are fetched on the first call, cached and refreshed; the
 * secondary subscription key takes over when the primary is refused.
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
  const wiring = oauth2Service(options, RISK_ENGINEERING_SCOPES, service);
  const client = createServiceClient<paths, typeof service>(options, {
    ...wiring,
    serviceOptions: { ...wiring.serviceOptions, ...PAGING_OPTION_NAMES },
    package: PACKAGE,
  });
  return { ...createResources(client, options), raw: client.raw };
}
