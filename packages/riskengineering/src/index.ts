/**
 * The client of the risk engineering API: paged gradings and locations.
 *
 * @example
 * import { createRiskEngineeringClient, fromEnv } from '@partner-apis/riskengineering';
 *
 * const risk = createRiskEngineeringClient(fromEnv());
 * const firstPage = await risk.gradings.page({ limit: 100 });
 */
import type { components } from './generated/openapi.js';

export { RISK_ENGINEERING_SCOPES, createRiskEngineeringClient } from './client.js';
export type {
  Grading,
  Gradings,
  GradingsQuery,
  RiskEngineeringClient,
  RiskEngineeringClientOptions,
  RiskLocation,
  RiskLocations,
  RiskLocationsQuery,
} from './client.js';
export { fromEnv } from './env.js';
export type {
  ApiPromise,
  AssumptionPolicy,
  CallOptions,
  Env,
  ListOptions,
  OAuth2ServiceCredentials,
  OffsetCollection,
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

type ErrorBodySchema = components['schemas']['ErrorBody'];
/** The common error body of every error response. */
export interface ErrorBody extends ErrorBodySchema {}

/** The typed errors every call throws, so users need no second import. */
export * from '@partner-apis/errors/classes';
