import { readServiceEnv, type Env } from '@partner-apis/core';
import type { ExposureClientOptions } from './client.js';

/**
 * The options of `createExposureClient` from the environment: `PARTNER_APIS_EXPOSURE_BASE_URL`,
 * `PARTNER_APIS_EXPOSURE_TOKEN_URL` (else `PARTNER_APIS_TOKEN_URL`),
 * `PARTNER_APIS_EXPOSURE_CLIENT_ID`, `PARTNER_APIS_EXPOSURE_CLIENT_SECRET`,
 * `PARTNER_APIS_EXPOSURE_SUBSCRIPTION_KEY`, `PARTNER_APIS_EXPOSURE_SUBSCRIPTION_KEY_SECONDARY`
 * and the optional `PARTNER_APIS_EXPOSURE_SECRET_CREATED_AT` / `…_SECRET_EXPIRES_AT`. A missing
 * variable is a `ConfigurationError` naming it.
 *
 * @example
 * const exposure = createExposureClient({ ...fromEnv(), prefetch: 8 });
 */
export function fromEnv(env: Env = globalThis.process?.env ?? {}): ExposureClientOptions {
  return readServiceEnv('EXPOSURE', env, 'oauth2');
}
