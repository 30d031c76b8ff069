export { createClientPipeline } from './client-pipeline.js';
export type {
  ClientPipeline,
  PipelineOptions,
  RetryOptions,
  TimeoutOptions,
} from './client-pipeline.js';
export type { TracerProviderLike, TracingOptions } from './tracing.js';
export { createServiceClient, expectData } from './service-client.js';
export type {
  ServiceClient,
  ServiceClientOptions,
  TracingHeaderName,
  WithoutTracingHeaders,
} from './service-client.js';
export { paginate } from './paginate.js';
export type { Page, PageRequest, PaginateOptions, Paginated } from './paginate.js';
export { RATE_LIMIT_TIERS } from './rate-limiter.js';
export type { CustomRateLimit, RateLimitTier } from './rate-limiter.js';
export type {
  Logger,
  PipelineEvents,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
} from './observer.js';
export { DEFAULT_LOGGED_HEADERS, createHeaderRedactor } from './header-redactor.js';
export { abortableSleep } from './sleep.js';
export { readEnvVariable, readServiceEnv, requireEnvVariable } from './service-env.js';
export type { Env, OAuth2ServiceEnv, ServiceEnv, ServiceEnvName } from './service-env.js';
export {
  createServiceClientFromOptions,
  isHeaderValue,
  withOptionNames,
} from './service-options.js';
export type { ClientOptions, ServiceWiring } from './service-options.js';
export {
  DEFAULT_PAGE_SIZE,
  DEFAULT_PREFETCH,
  MAX_PAGE_SIZE,
  MAX_PREFETCH,
  createOffsetPaging,
} from './offset-collection.js';
export type {
  CollectionQuery,
  CollectionRead,
  CollectionRequestInit,
  ListOptions,
  ModifiedSince,
  OffsetCollection,
  OffsetPaging,
  PageOptions,
  PagingOptions,
} from './offset-collection.js';
export { createOAuth2ServiceClient } from './oauth2-service-client.js';
export type {
  OAuth2ServiceClientOptions,
  OAuth2ServiceCredentials,
  SubscriptionKeys,
} from './oauth2-service-client.js';
export { checkCallOptions } from './call-options.js';
export type { CallOptions } from './call-options.js';
