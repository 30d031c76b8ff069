import { readServiceEnv, type Env } from '@partner-apis/core';
import type { LiabilityClientOptions } from './client.js';

/**
 * The options of `createLiabilityClient` from `PARTNER_APIS_LIABILITY_BASE_URL`,
 * `PARTNER_APIS_LIABILITY_CLIENT_ID`, `PARTNER_APIS_LIABILITY_CLIENT_SECRET` and the optional
 * `PARTNER_APIS_LIABILITY_SECRET_CREATED_AT` / `PARTNER_APIS_LIABILITY_SECRET_EXPIRES_AT`. A
 * missing variable is a `ConfigurationError` naming it.
 *
 * @example
 * const client = createLiabilityClient({ ...fromEnv(), timeout: { attemptMs: 10_000 } });
 */
export function fromEnv(env: Env = globalThis.process?.env ?? {}): LiabilityClientOptions {
  return readServiceEnv('LIABILITY', env);
}
