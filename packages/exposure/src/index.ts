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
  ApiPromise,
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
  SyncCheckpoint,
  SyncOptions,
  SyncRun,
  WithResponse,
} from '@partner-apis/core';
export type { components, operations, paths } from './generated/openapi.js';
export type { Resources } from './generated/resources.js';

type StatementOfValuesLocationSchema = components['schemas']['StatementOfValuesLocation'];
/** One location of a Statement of Values. */
export interface StatementOfValuesLocation extends StatementOfValuesLocationSchema {}
type AddressSchema = components['schemas']['Address'];
/** A postal address; `country` is ISO 3166-1 alpha-2. */
export interface Address extends AddressSchema {}
type CoordinatesSchema = components['schemas']['Coordinates'];
/** WGS 84 coordinates of a location. */
export interface Coordinates extends CoordinatesSchema {}
type CoverageValuesSchema = components['schemas']['CoverageValues'];
/** Insured values per coverage, in the portfolio's currency. */
export interface CoverageValues extends CoverageValuesSchema {}
type ErrorBodySchema = components['schemas']['ErrorBody'];
/** The common error body of every error response. */
export interface ErrorBody extends ErrorBodySchema {}

/** The typed errors every call throws, so users need no second import. */
export * from '@partner-apis/errors/classes';
