import type { IncomingHttpHeaders } from 'node:http';
import { apiKeyOf } from './http/request-body.js';
import type { OperationModel } from '@partner-apis/spec-model';
import type { SlidingWindowLimit } from './auth/rate-limit.js';
import type { TokenStore } from './auth/token-store.js';
import type { PortalCredentials, SandboxCredentials } from './credentials.js';
import type { LiabilityStore } from './services/liability-store.js';
import type { RequestIdLedger } from './services/request-id-ledger.js';

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

/**
 * Whether a request carries an active subscription key of `credentials` (one of the pair, not
 * revoked) where its operation's security puts it: the header, query parameter or cookie its
 * `apiKey` scheme names. An operation whose spec asks for no key passes.
 */
export function carriesActiveKey(
  context: SandboxContext,
  credentials: PortalCredentials,
  operation: OperationModel,
  headers: IncomingHttpHeaders,
  query: URLSearchParams,
): boolean {
  const [scheme] = operation.security.apiKeys;
  if (scheme === undefined) return true;
  const key = apiKeyOf(scheme, headers, query);
  if (key === undefined || context.revokedKeys.has(key)) return false;
  return (
    key === credentials.subscriptionKeys.primary || key === credentials.subscriptionKeys.secondary
  );
}
