/**
 * The client of the property exposure API: paged locations and the Statement of Values.
 *
 * @example
 * import { createExposureClient, fromEnv } from '@partner-apis/exposure';
 *
 * const exposure = createExposureClient(fromEnv());
 * const firstPage = await exposure.locations.page({ limit: 10 });
 */
import type { components } from './generated/openapi.js';

export { EXPOSURE_SCOPES, createExposureClient } from './client.js';
export type {
  ExposureClient,
  ExposureClientOptions,
  Location,
  Locations,
  LocationsQuery,
  StatementOfValues,
  StatementOfValuesReceipt,
  StatementOfValuesResource,
} from './client.js';
export { fromEnv } from './env.js';
export type {
  AssumptionPolicy,
  CallOptions,
  Env,
  ListOptions,
  OffsetCollection,
  OAuth2ServiceCredentials,
  Page,
  PageOptions,
  Paginated,
  PagingOptions,
  RecordsPage,
  SubscriptionKeys,
} from '@partner-apis/core';
export type { components, operations, paths } from './generated/openapi.js';

/** One location of a Statement of Values. */
export type StatementOfValuesLocation = components['schemas']['StatementOfValuesLocation'];
/** A postal address; `country` is ISO 3166-1 alpha-2. */
export type Address = components['schemas']['Address'];
/** WGS 84 coordinates of a location. */
export type Coordinates = components['schemas']['Coordinates'];
/** Insured values per coverage, in the portfolio's currency. */
export type CoverageValues = components['schemas']['CoverageValues'];
/** The common error body of every error response. */
export type ErrorBody = components['schemas']['ErrorBody'];

/** The typed errors every call throws, so users need no second import. */
export * from '@partner-apis/errors';
