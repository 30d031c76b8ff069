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
  name: '@partner-apis/exposure',
  version: typeof __PACKAGE_VERSION__ === 'string' ? __PACKAGE_VERSION__ : undefined,
};

/** The query parameters of the locations read, as the spec declares them. */
export type LocationsQuery = NonNullable<Operations['listLocations']['parameters']['query']>;
/** The exposure locations: `list` pages through all of them, `page` reads one page. */
export type Locations = Resources['locations'];
/**
 * The Statement of Values operations of the exposure client. `submit` sends the portfolio as
 * it is: the schema is our assumption, so it never blocks a submission; check it first with
 * `validateStatementOfValues` from `@partner-apis/exposure/statement-of-values` if you want to.
 * Sent once: a POST is not repeated after it may have reached the service.
 */
export type StatementOfValuesResource = Resources['statementOfValues'];

/** The scopes of the exposure service's tokens, from the spec. */
export const EXPOSURE_SCOPES = oauth2Scopes;

/**
 * Options of `createExposureClient`: address, token endpoint and credentials, the paging
 * defaults of `locations.list`, and the pipeline's timeouts, retries, rate limit, events,
 * logger, `fetch` and `userAgent`.
 */
export interface ExposureClientOptions extends OAuth2ServiceClientOptions, PagingOptions {}

/**
 * A client of the property exposure API: one member per resource of the spec (`locations`,
 * `statementOfValues`), and `raw`.
 */
export interface ExposureClient extends Resources {
  /** The openapi-fetch client over the same pipeline, for anything else in the spec. */
  readonly raw: ServiceClient<paths, typeof service>['raw'];
}

/**
 * Creates a client of the property exposure API. Every option is checked here; a bad one
 * throws a `ConfigurationError` naming it. Tokens (the spec's scopes, `Portal.Api
 * Portal.Api.Exposure`) are fetched on the first call, cached and refreshed; the secondary
 * subscription key takes over when the primary is refused.
 *
 * @example
 * const exposure = createExposureClient({
 *   baseUrl: 'https://api.example.com',
 *   tokenUrl: 'https://auth.example.com/login/connect/token',
 *   credentials: {
 *     clientId: 'my-client',
 *     clientSecret: process.env.EXPOSURE_SECRET ?? '',
 *     subscriptionKeys: { primary: process.env.EXPOSURE_KEY ?? '' },
 *   },
 * });
 * for await (const location of exposure.locations.list({ modifiedSince: '2026-01-31' })) {
 *   console.log(location['locationId']);
 * }
 */
export function createExposureClient(options: ExposureClientOptions): ExposureClient {
  const wiring = oauth2Service(options, EXPOSURE_SCOPES, service);
  const client = createServiceClient<paths, typeof service>(options, {
    ...wiring,
    serviceOptions: { ...wiring.serviceOptions, ...PAGING_OPTION_NAMES },
    package: PACKAGE,
  });
  return { ...createResources(client, options), raw: client.raw };
}
