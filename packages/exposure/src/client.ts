import {
  createOAuth2ServiceClient,
  createOffsetPaging,
  type OAuth2ServiceClientOptions,
  type OffsetCollection,
  type PagingOptions,
  type ServiceClient,
} from '@partner-apis/core';
import type { components, paths } from './generated/openapi.js';
import {
  statementOfValuesResource,
  type StatementOfValuesResource,
} from './statement-of-values.js';

/** One exposure location record. Its fields are not published yet: the record is open. */
export type Location = components['schemas']['Location'];

/** The scopes of the exposure service's tokens. */
export const EXPOSURE_SCOPES = ['Portal.Api', 'Portal.Api.Exposure'] as const;

/**
 * Options of `createExposureClient`: address, token endpoint and credentials, the paging
 * defaults of `locations.list`, and the pipeline's timeouts, retries, rate limit, events,
 * logger, `fetch` and `userAgent`.
 */
export interface ExposureClientOptions extends OAuth2ServiceClientOptions, PagingOptions {}

/** A client of the property exposure API. */
export interface ExposureClient {
  /** The exposure locations: `list` pages through all of them, `page` reads one page. */
  readonly locations: OffsetCollection<Location>;
  /** Local validation and the (provisional) submission of a Statement of Values. */
  readonly statementOfValues: StatementOfValuesResource;
  /** The openapi-fetch client over the same pipeline, for anything else in the spec. */
  readonly raw: ServiceClient<paths>['raw'];
}

/**
 * Creates a client of the property exposure API. Every option is checked here; a bad one
 * throws a `ConfigurationError` naming it. Tokens (scopes `Portal.Api Portal.Api.Exposure`) are
 * fetched on the first call, cached and refreshed; the secondary subscription key takes over
 * when the primary is refused.
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
  const { raw } = createOAuth2ServiceClient<paths>(options, EXPOSURE_SCOPES);
  const paging = createOffsetPaging(options);
  return {
    locations: paging.collection<Location>('locations', (query, init) =>
      raw.GET('/open/portal-api/exposure/locations', { params: { query }, ...init }),
    ),
    statementOfValues: statementOfValuesResource(raw),
    raw,
  };
}
