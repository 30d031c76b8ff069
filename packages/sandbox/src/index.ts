export { startSandbox } from './start-sandbox.js';
export type { Sandbox, SandboxFixtures, SandboxRoute, SandboxUrls } from './sandbox.js';
export type { SandboxOptions, SandboxSizes } from './options.js';
export type { ServiceName } from './services/service.js';
export type {
  ApprovalsCredentials,
  ApprovalsTier,
  ClientCredentials,
  PortalCredentials,
  SandboxCredentials,
  SandboxCredentialsInput,
} from './credentials.js';
export type { FaultAction, FaultPlan, PeriodicFault } from './faults.js';
export type { ResponseViolation, RouteStats, SandboxStats } from './stats.js';
export type { ValidationCause } from './spec/validators.js';
export { SandboxConfigError } from './config-error.js';
export { LIABILITY_SPEC_OPTION, startSandboxWithLiabilitySpecs } from './liability-spec-files.js';
