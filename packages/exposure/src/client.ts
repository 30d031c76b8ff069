import {
  apiPromise,
  createOffsetCollection,
  createServiceClient,
  PAGING_OPTION_NAMES,
  oauth2Service,
  type ApiPromise,
  type CallOptions,
  type EnvelopeOf,
  type OAuth2ServiceClientOptions,
  type OffsetCollection,
  type PagingOptions,
  type QueryOf,
  type ServiceClient,
} from '@partner-apis/core';
import type { components, operations, paths } from './generated/openapi.js';
import { listLocations, oauth2Scopes, submitStatementOfValues } from './generated/operations.js';

type LocationSchema = components['schemas']['Location'];
/** One exposure location record. Its fields are not published yet: the record is open. */
export interface Location extends LocationSchema {}
/** The query parameters of the locations read, as the spec declares them. */
export type LocationsQuery = QueryOf<operations['listLocations']>;
/** The exposure locations: `list` pages through all of them, `page` reads one page. */
export type Locations = OffsetCollection<
  Location,
  LocationsQuery,
  typeof listLocations,
  EnvelopeOf<operations['listLocations']>
>;
type StatementOfValuesSchema = components['schemas']['StatementOfValues'];
/** A property portfolio for the provisional Statement of Values submission. */
export interface StatementOfValues extends StatementOfValuesSchema {}
type StatementOfValuesReceiptSchema = components['schemas']['StatementOfValuesReceipt'];
/** Whatever the service returns for an accepted Statement of Values; not published, so open. */
export interface StatementOfValuesReceipt extends StatementOfValuesReceiptSchema {}

/** The scopes of the exposure service's tokens, from the spec. */
export const EXPOSURE_SCOPES = oauth2Scopes;

/**
 * Options of `createExposureClient`: address, token endpoint and credentials, the paging
 * defaults of `locations.list`, and the pipeline's timeouts, retries, rate limit, events,
 * logger, `fetch` and `userAgent`.
 */
export interface ExposureClientOptions extends OAuth2ServiceClientOptions, PagingOptions {}

/** The Statement of Values operations of the exposure client. */
export interface StatementOfValuesResource {
  /**
   * Submits a portfolio (provisional operation: its path and payload are not published). The
   * portfolio is sent as it is: the schema is our assumption, so it never blocks a submission;
   * check it first with `validateStatementOfValues` from `@partner-apis/exposure/statement-of-values`
   * if you want to. Sent once: a POST is not repeated after it may have reached the service.
   *
   * @example
   * const receipt = await exposure.statementOfValues.submit(portfolio);
   */
  submit(portfolio: StatementOfValues, options?: CallOptions): ApiPromise<StatementOfValuesReceipt>;
}

/** A client of the property exposure API. */
export interface ExposureClient {
  /** The exposure locations: `list` pages through all of them, `page` reads one page. */
  readonly locations: Locations;
  /** The (provisional) submission of a Statement of Values. */
  readonly statementOfValues: StatementOfValuesResource;
  /** The openapi-fetch client over the same pipeline, for anything else in the spec. */
  readonly raw: ServiceClient<paths>['raw'];
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
  const wiring = oauth2Service(options, EXPOSURE_SCOPES);
  const client = createServiceClient<paths>(options, {
    ...wiring,
    serviceOptions: { ...wiring.serviceOptions, ...PAGING_OPTION_NAMES },
  });
  return {
    locations: createOffsetCollection<
      Location,
      typeof listLocations,
      LocationsQuery,
      EnvelopeOf<operations['listLocations']>
    >(client, listLocations, 'locations', options),
    statementOfValues: {
      submit(portfolio, callOptions) {
        const name = 'statementOfValues.submit';
        const body = { body: portfolio };
        return apiPromise(
          client.call(submitStatementOfValues, body, callOptions, name).then((result) => ({
            ...result,
            // Any 2xx is an acceptance, with a body or without one (the response is not published).
            data: (result.data ?? {}) as StatementOfValuesReceipt,
          })),
        );
      },
    },
    raw: client.raw,
  };
}
