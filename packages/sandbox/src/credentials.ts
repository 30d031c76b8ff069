import { randomBytes } from 'node:crypto';
import { describeSpec } from '@partner-apis/spec-model';
import { openapiDocument as approvalsDocument } from './generated/approvals.document.js';
import { specServiceCredentials, type SpecServiceCredentials } from './services/spec-service.js';

/** Credentials of the exposure or risk engineering service: OAuth 2.0 client plus key pair. */
export interface PortalCredentials {
  clientId: string;
  clientSecret: string;
  subscriptionKeys: { primary: string; secondary: string };
}

/** A client ID and secret (liability: HTTP Basic). */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** A tier of the approvals service (the names of `x-rate-limit-tiers` in its spec). */
export type ApprovalsTier = 'bronze' | 'silver' | 'gold';

/**
 * The tiers of the approvals service and their calls per second, as its spec gives them
 * (`info.x-rate-limit-tiers`), so a changed rate reaches the sandbox with the spec.
 */
export const APPROVALS_TIERS = describeSpec(approvalsDocument).rateLimitTiers as Readonly<
  Record<ApprovalsTier, number>
>;

/** Credentials of the approvals service: `client_id` / `client_secret` headers and a tier. */
export interface ApprovalsCredentials extends ClientCredentials {
  tier: ApprovalsTier;
}

/** The credentials the sandbox accepts, one set per service. */
export interface SandboxCredentials {
  exposure: PortalCredentials;
  riskEngineering: PortalCredentials;
  liability: ClientCredentials;
  approvals: ApprovalsCredentials;
  /** Of each service served from its spec alone, by the name of its spec. */
  services: Readonly<Record<string, SpecServiceCredentials>>;
}

/** Credentials a caller may fix; whatever is left out is generated. */
export interface SandboxCredentialsInput {
  exposure?: Partial<Omit<PortalCredentials, 'subscriptionKeys'>> & {
    subscriptionKeys?: Partial<PortalCredentials['subscriptionKeys']>;
  };
  riskEngineering?: SandboxCredentialsInput['exposure'];
  liability?: Partial<ClientCredentials>;
  approvals?: Partial<ApprovalsCredentials>;
}

function secret(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

function key(): string {
  // Subscription keys look like the 32 hex digits an API gateway issues.
  return randomBytes(16).toString('hex');
}

function portal(name: string, input: SandboxCredentialsInput['exposure']): PortalCredentials {
  return {
    clientId: input?.clientId ?? `sandbox-${name}-${randomBytes(4).toString('hex')}`,
    clientSecret: input?.clientSecret ?? secret(24),
    subscriptionKeys: {
      primary: input?.subscriptionKeys?.primary ?? key(),
      secondary: input?.subscriptionKeys?.secondary ?? key(),
    },
  };
}

/** Fresh credentials for every service, with the caller's values where given. */
export function createCredentials(
  input: SandboxCredentialsInput = {},
  specServices: readonly string[] = [],
): SandboxCredentials {
  return {
    services: Object.fromEntries(specServices.map((name) => [name, specServiceCredentials(name)])),
    exposure: portal('exposure', input.exposure),
    riskEngineering: portal('riskengineering', input.riskEngineering),
    liability: {
      clientId: input.liability?.clientId ?? `sandbox-liability-${randomBytes(4).toString('hex')}`,
      clientSecret: input.liability?.clientSecret ?? secret(24),
    },
    approvals: {
      clientId: input.approvals?.clientId ?? `sandbox-approvals-${randomBytes(4).toString('hex')}`,
      clientSecret: input.approvals?.clientSecret ?? secret(24),
      tier: input.approvals?.tier ?? 'gold',
    },
  };
}
