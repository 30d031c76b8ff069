/**
 * The client of the risk engineering API: paged gradings and locations.
 *
 * @example
 * import { createRiskEngineeringClient, fromEnv } from '@partner-apis/riskengineering';
 *
 * const risk = createRiskEngineeringClient(fromEnv());
 * const firstPage = await risk.gradings.page({ limit: 100 });
 */
export { RISK_ENGINEERING_SCOPES, createRiskEngineeringClient } from './client.js';
export type {
  Gradings,
  GradingsQuery,
  RiskEngineeringClient,
  RiskEngineeringClientOptions,
  RiskLocations,
  RiskLocationsQuery,
} from './client.js';
export type {
  ErrorBody,
  Grading,
  GradingsFilters,
  GradingsListOptions,
  GradingsPageOptions,
  GradingsSyncOptions,
  LocationsFilters as RiskLocationsFilters,
  LocationsListOptions as RiskLocationsListOptions,
  LocationsPageOptions as RiskLocationsPageOptions,
  LocationsSyncOptions as RiskLocationsSyncOptions,
  RiskLocation,
} from './generated/resources.js';
export { fromEnv } from './env.js';
export type {
  ApiPromise,
  AssumptionPolicy,
  CallOptions,
  Env,
  OAuth2ServiceCredentials,
  OffsetCollection,
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
