export { createApprovalsClient } from './client.js';
export type {
  Approvals,
  ApprovalsCallOptions,
  ApprovalsQuery,
  ApprovalsClient,
  ApprovalsClientOptions,
  ApprovalsRaw,
  ApprovalsTier,
  ApprovalsTierName,
} from './client.js';
export { flattenApprovals } from './flatten.js';
export type { ApprovalEntry, ApprovalKind } from './flatten.js';
export { fromEnv } from './env.js';
export type { components, operations, paths } from './generated/openapi.js';
export type * from './generated/resources.js';
export type { ApiPromise, CallOptions, WithResponse } from '@partner-apis/core';
export type { ApprovalComment, ApprovalsErrorCode } from './types.js';

/** The typed errors every call throws, so users need no second import. */
export * from '@partner-apis/errors/classes';
