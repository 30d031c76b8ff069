export { createClientPipeline } from './client/client-pipeline.js';
export type { ClientPipeline, HttpAgentLike, PipelineOptions } from './client/client-pipeline.js';
export type { RetryOptions } from './pipeline/retry.js';
export type { TimeoutOptions } from './pipeline/attempt.js';
export type { TracerProviderLike, TracingOptions } from './observe/tracing.js';
export type { PackageIdentity } from './client/user-agent.js';
export type { Answer, RequestBody } from './transport/exchange.js';
export type {
  CallOverrides,
  Execute,
  PipelineCall,
  PipelineReply,
  RetryBudget,
} from './pipeline/call.js';
export { createServiceClient } from './client/service-client.js';
export type { CallResult } from './operations/call-answer.js';
export type { CallArguments, ResourceClient } from './operations/resource-client.js';
export type { TracingHeaders } from './pipeline/request-id.js';
export type { TracingHeaderName, WithoutTracingHeaders } from './client/raw-client-types.js';
export type { ClientOptions, ServiceClient, ServiceWiring } from './client/service-client.js';
export { oauth2Service } from './client/oauth2-service-client.js';
export type {
  OAuth2ServiceClientOptions,
  OAuth2ServiceCredentials,
  SubscriptionKeys,
} from './client/oauth2-service-client.js';
export type {
  CallOptions,
  CallRetryOptions,
  CallTimeoutOptions,
} from './operations/call-options.js';
export type { ApiPromise, ResponseMeta, WithResponse } from './operations/api-promise.js';
export type {
  ArgumentDescription,
  AssumptionPolicy,
  BodyDescription,
  MediaKind,
  OperationDescription,
  PagingDescription,
  ParameterDescription,
  SecuritySchemeDescription,
  ServiceDescription,
} from './operations/operation.js';
export { operationMethod, pagedRead } from './client/resource-methods.js';
export type { SyncCheckpoint, SyncOptions, SyncRun, SyncRunOptions } from './paging/sync.js';
export type { Page, Paginated } from './paging/paginate.js';
export type {
  ListCallOptions,
  OffsetCollection,
  PagingOptions,
  RecordsPage,
} from './paging/offset-collection.js';
export type {
  CustomRateLimit,
  RateLimiter,
  RateLimitTier,
  RateSlot,
} from './rate-limit/limiter.js';
export type { Fleet, FleetRateScope } from './rate-limit/fleet.js';
export type {
  Logger,
  PipelineEvents,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
  WarningCode,
} from './observe/observer.js';
export { readServiceEnv } from './client/service-env.js';
export type {
  KeyServiceEnv,
  OAuth2ServiceEnv,
  ServiceEnv,
  ServiceEnvName,
} from './client/service-env.js';
export type { Env } from './observe/log-from-env.js';
