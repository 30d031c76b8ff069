import { readServiceEnv, type Env } from '@partner-apis/core';
import { readEnvVariable } from '@partner-apis/core/internal';
import { ConfigurationError } from '@partner-apis/errors';
import type { ApprovalsClientOptions, ApprovalsTier, ApprovalsTierName } from './client.js';
import { rateLimitTiers } from './generated/operations.js';

const TIER_VARIABLE = 'PARTNER_APIS_APPROVALS_TIER';

function tierOf(value: string): ApprovalsTier {
  const name = value.toLowerCase();
  if (Object.hasOwn(rateLimitTiers, name)) return name as ApprovalsTierName;
  const requestsPerSecond = Number(value);
  if (Number.isFinite(requestsPerSecond) && requestsPerSecond > 0) return { requestsPerSecond };
  throw new ConfigurationError(
    TIER_VARIABLE,
    `must be ${Object.keys(rateLimitTiers).join(', ')} or a number of calls per second (got ${value})`,
  );
}

/**
 * The options of `createApprovalsClient` from `PARTNER_APIS_APPROVALS_BASE_URL`,
 * `PARTNER_APIS_APPROVALS_CLIENT_ID`, `PARTNER_APIS_APPROVALS_CLIENT_SECRET`, the optional
 * `PARTNER_APIS_APPROVALS_SECRET_CREATED_AT` / `PARTNER_APIS_APPROVALS_SECRET_EXPIRES_AT`, and
 * `PARTNER_APIS_APPROVALS_TIER` (`bronze`, `silver`, `gold` or calls per second; optional). A
 * missing or bad variable is a `ConfigurationError` naming it.
 *
 * @example
 * const client = createApprovalsClient({ ...fromEnv(), userAgent: 'approvals-digest/1.0' });
 */
export function fromEnv(env: Env = globalThis.process?.env ?? {}): ApprovalsClientOptions {
  const options: ApprovalsClientOptions = readServiceEnv('APPROVALS', env);
  const tier = readEnvVariable(env, TIER_VARIABLE);
  return tier === undefined ? options : { ...options, tier: tierOf(tier) };
}
