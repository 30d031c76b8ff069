/**
 * The client of the property exposure API: paged locations and the Statement of Values.
 *
 * @example
 * import { createExposureClient, fromEnv } from '@partner-apis/exposure';
 *
 * const exposure = createExposureClient(fromEnv());
 * const firstPage = await exposure.locations.page({ limit: 10 });
 */
export { EXPOSURE_SCOPES, createExposureClient } from './client.js';
export type {
  ExposureClient,
  ExposureClientOptions,
  Locations,
  LocationsQuery,
  StatementOfValuesResource,
} from './client.js';
export type {
  Address,
  Coordinates,
  CoverageValues,
  CurrencyCode,
  ErrorBody,
  Location,
  LocationsFilters,
  LocationsListOptions,
  LocationsPageOptions,
  LocationsSyncOptions,
  StatementOfValues,
  StatementOfValuesLocation,
  StatementOfValuesReceipt,
} from './generated/resources.js';
export { fromEnv } from './env.js';
export type {
  ApiPromise,
  AssumptionPolicy,
  CallOptions,
  Env,
  OffsetCollection,
  OAuth2ServiceCredentials,
  Page,
  Paginated,
  PagingOptions,
  RecordsPage,
  SubscriptionKeys,
  SyncCheckpoint,
  SyncOptions,
  SyncRun,
  WithResponse,
} from '@partner-apis/core';
export type { components, operations, paths } from './generated/openapi.js';
export type * from './generated/resources.js';

/** The typed errors every call throws, so users need no second import. */
export * from '@partner-apis/errors/classes';
