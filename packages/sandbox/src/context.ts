import type { SlidingWindowLimit } from './auth/rate-limit.js';
import type { TokenStore } from './auth/token-store.js';
import type { PortalCredentials, SandboxCredentials } from './credentials.js';
import type { LiabilityStore } from './services/liability-store.js';
import type { RequestIdLedger } from './services/request-ids.js';

/** Everything the handlers of one running sandbox share. */
export interface SandboxContext {
  readonly seed: number;
  readonly credentials: SandboxCredentials;
  /** Subscription keys revoked on demand (for key failover tests). */
  readonly revokedKeys: Set<string>;
  readonly tokens: TokenStore;
  readonly employeesWithNothingOutstanding: ReadonlySet<string>;
  readonly approvalsLimit: SlidingWindowLimit;
  readonly liability: LiabilityStore;
  /** The request ids each service has seen, to refuse a reused one. */
  readonly requestIds: { readonly liability: RequestIdLedger; readonly approvals: RequestIdLedger };
}

/** The portal client (exposure or risk engineering) that owns a client ID, if any. */
export function portalClient(
  context: SandboxContext,
  clientId: string,
): { service: 'exposure' | 'riskEngineering'; credentials: PortalCredentials } | undefined {
  const { exposure, riskEngineering } = context.credentials;
  if (clientId === exposure.clientId) return { service: 'exposure', credentials: exposure };
  if (clientId === riskEngineering.clientId) {
    return { service: 'riskEngineering', credentials: riskEngineering };
  }
  return undefined;
}

/** Whether a subscription key is one of the pair and not revoked. */
export function isActiveKey(
  context: SandboxContext,
  credentials: PortalCredentials,
  key: string | undefined,
): boolean {
  if (key === undefined || context.revokedKeys.has(key)) return false;
  return (
    key === credentials.subscriptionKeys.primary || key === credentials.subscriptionKeys.secondary
  );
}
