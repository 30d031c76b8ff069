export { createApprovalsClient } from './client.js';
export type { ApprovalsClient, ApprovalsClientOptions, ApprovalsResult } from './client.js';
