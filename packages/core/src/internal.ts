/**
 * The plumbing the service packages and this repository's tools share: how a generated method
 * pages, syncs and answers. Not an API for applications: it changes with the generated code.
 */
export { expectData, withData } from './operations/call-answer.js';
export { readEnvVariable } from './client/service-env.js';
export { PAGING_OPTION_NAMES } from './paging/offset-collection.js';
export { DEFAULT_LOGGED_HEADERS } from './observe/header-redactor.js';
export { apiPromise } from './operations/api-promise.js';
export { isHeaderValue } from './operations/call-options.js';
export { createOffsetCollection } from './paging/offset-collection.js';
export { paginate } from './paging/paginate.js';
export type { PageContents, PageRequest, PaginateOptions } from './paging/paginate.js';
export { createSyncRun } from './paging/sync.js';
export type { SyncContext, SyncSource } from './paging/sync.js';
export { SEND_KEY } from './transport/direct-send.js';
export type { DirectSendOffer, SendKit } from './transport/direct-send.js';
export type { Answer, Exchange, Send } from './transport/exchange.js';
