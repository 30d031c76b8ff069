export { createClientPipeline } from './client-pipeline.js';
export type {
  ClientPipeline,
  HttpAgentLike,
  PipelineOptions,
  RetryOptions,
  TimeoutOptions,
} from './client-pipeline.js';
export type { TracerProviderLike, TracingOptions } from './tracing.js';
export type { PackageIdentity } from './user-agent.js';
export type { Answer, RequestBody } from './exchange.js';
export type {
  CallOverrides,
  Execute,
  PipelineCall,
  PipelineReply,
  RetryBudget,
} from './transport.js';
export { createServiceClient, expectData, withData } from './service-client.js';
export type {
  CallArguments,
  CallResult,
  ClientOptions,
  ResourceClient,
  ServiceClient,
  ServiceWiring,
  TracingHeaderName,
  WithoutTracingHeaders,
} from './service-client.js';
export { oauth2Service } from './oauth2-service-client.js';
export type {
  OAuth2ServiceClientOptions,
  OAuth2ServiceCredentials,
  SubscriptionKeys,
} from './oauth2-service-client.js';
export { isHeaderValue } from './call-options.js';
export type { CallOptions, CallRetryOptions, CallTimeoutOptions } from './call-options.js';
export { apiPromise } from './api-promise.js';
export type { ApiPromise, ResponseMeta, WithResponse } from './api-promise.js';
export type {
  ApiKeyDescription,
  AssumptionPolicy,
  BodyDescription,
  OperationDescription,
  ParameterDescription,
} from './operation.js';
export { operationMethod, pagedRead } from './resource-methods.js';
export { createSyncRun } from './sync.js';
export type { SyncCheckpoint, SyncContext, SyncOptions, SyncRun, SyncSource } from './sync.js';
export type {
  CallQuery,
  PagedRead,
  Syncable,
  RecordOf,
  RequestBodyOf,
} from './resource-methods.js';
export { paginate } from './paginate.js';
export type { Page, PageContents, PageRequest, PaginateOptions, Paginated } from './paginate.js';
export { createOffsetCollection } from './offset-collection.js';
export { PAGING_OPTION_NAMES } from './unknown-options.js';
export type {
  DescribedQuery,
  EnvelopeOf,
  ListOptions,
  OffsetCollection,
  PageOptions,
  PagingOptions,
  QueryOf,
  RecordsPage,
  ResponseBodyOf,
} from './offset-collection.js';
export type { CustomRateLimit, RateLimiter, RateLimitTier, RateSlot } from './rate-limiter.js';
export type { Fleet, FleetRateScope } from './fleet.js';
export type {
  Logger,
  PipelineEvents,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
} from './observer.js';
export { DEFAULT_LOGGED_HEADERS } from './header-redactor.js';
export { readEnvVariable, readServiceEnv } from './service-env.js';
export type { Env, OAuth2ServiceEnv, ServiceEnv, ServiceEnvName } from './service-env.js';
