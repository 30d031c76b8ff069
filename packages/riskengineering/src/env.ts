import { readServiceEnv, type Env } from '@partner-apis/core';
import type { RiskEngineeringClientOptions } from './client.js';

/**
 * The options of `createRiskEngineeringClient` from the environment:
 * `PARTNER_APIS_RISKENGINEERING_BASE_URL`, `PARTNER_APIS_RISKENGINEERING_TOKEN_URL` (else
 * `PARTNER_APIS_TOKEN_URL`), `PARTNER_APIS_RISKENGINEERING_CLIENT_ID`,
 * `PARTNER_APIS_RISKENGINEERING_CLIENT_SECRET`, `PARTNER_APIS_RISKENGINEERING_SUBSCRIPTION_KEY`,
 * `PARTNER_APIS_RISKENGINEERING_SUBSCRIPTION_KEY_SECONDARY` and the optional
 * `PARTNER_APIS_RISKENGINEERING_SECRET_CREATED_AT` / `…_SECRET_EXPIRES_AT`. A missing variable is
 * a `ConfigurationError` naming it.
 *
 * @example
 * const risk = createRiskEngineeringClient({ ...fromEnv(), pageSize: 1024 });
 */
export function fromEnv(env: Env = globalThis.process?.env ?? {}): RiskEngineeringClientOptions {
  return readServiceEnv('RISKENGINEERING', env, 'oauth2');
}
