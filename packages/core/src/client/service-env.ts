import { ConfigurationError } from '@partner-apis/errors';
import type { Env } from '../observe/log-from-env.js';

/** The `<SERVICE>` part of the `PARTNER_APIS_<SERVICE>_…` variables, e.g. `EXPOSURE`. */
export type ServiceEnvName = string;

/** The options every service reads from its variables. */
export interface ServiceEnv {
  baseUrl: string;
  credentials: {
    clientId: string;
    clientSecret: string;
    secretCreatedAt?: string;
    secretExpiresAt?: string;
  };
}

/** What a service whose requests carry a bearer token or an API key reads. */
export interface KeyServiceEnv {
  baseUrl: string;
  credentials: { token: string } | { apiKey: string };
}

/** What an OAuth 2.0 service (exposure, risk engineering) reads besides. */
export interface OAuth2ServiceEnv extends ServiceEnv {
  tokenUrl: string;
  credentials: ServiceEnv['credentials'] & {
    subscriptionKeys: { primary: string; secondary?: string };
  };
}

/**
 * The value of the first of `names` that is set and not blank, trimmed; `undefined` when none is.
 */
export function readEnvVariable(env: Env, names: string | readonly string[]): string | undefined {
  for (const name of typeof names === 'string' ? [names] : names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/**
 * Like `readEnvVariable`, but a `ConfigurationError` naming the first variable when none is set.
 */
export function requireEnvVariable(env: Env, names: string | readonly string[]): string {
  const value = readEnvVariable(env, names);
  if (value !== undefined) return value;
  const [first, ...fallbacks] = typeof names === 'string' ? [names] : names;
  const also = fallbacks.length === 0 ? '' : ` (nor ${fallbacks.join(', ')})`;
  throw new ConfigurationError(first ?? 'environment', `is not set${also}`);
}

function asEnv(env: unknown): Env {
  if (typeof env !== 'object' || env === null) {
    throw new ConfigurationError('env', 'must be an object of environment variables');
  }
  return env as Env;
}

/**
 * Reads the options of one service from `PARTNER_APIS_<SERVICE>_BASE_URL`, `…_CLIENT_ID`,
 * `…_CLIENT_SECRET` and the optional `…_SECRET_CREATED_AT` / `…_SECRET_EXPIRES_AT`; with
 * `'oauth2'` also `…_TOKEN_URL` (falling back to `PARTNER_APIS_TOKEN_URL`), `…_SUBSCRIPTION_KEY`
 * and the optional `…_SUBSCRIPTION_KEY_SECONDARY`; with `'token'` or `'apiKey'` only `…_BASE_URL` and
 * `…_TOKEN` or `…_API_KEY`. A missing or blank variable is a `ConfigurationError`
 * naming it; the values themselves are checked when the client is created.
 *
 * @example
 * export function fromEnv(env: Env = process.env): LiabilityClientOptions {
 *   return readServiceEnv('LIABILITY', env);
 * }
 */
export function readServiceEnv(service: ServiceEnvName, env: Env): ServiceEnv;
export function readServiceEnv(
  service: ServiceEnvName,
  env: Env,
  scheme: 'oauth2',
): OAuth2ServiceEnv;
export function readServiceEnv(
  service: ServiceEnvName,
  env: Env,
  scheme: 'token' | 'apiKey',
): KeyServiceEnv;
export function readServiceEnv(
  service: ServiceEnvName,
  env: Env,
  scheme?: 'oauth2' | 'token' | 'apiKey',
): ServiceEnv | OAuth2ServiceEnv | KeyServiceEnv {
  const vars = asEnv(env);
  const name = (suffix: string) => `PARTNER_APIS_${service}_${suffix}`;
  if (scheme === 'token' || scheme === 'apiKey') {
    const variable = name(scheme === 'token' ? 'TOKEN' : 'API_KEY');
    const baseUrl = requireEnvVariable(vars, name('BASE_URL'));
    return { baseUrl, credentials: { [scheme]: requireEnvVariable(vars, variable) } as never };
  }
  const secretCreatedAt = readEnvVariable(vars, name('SECRET_CREATED_AT'));
  const secretExpiresAt = readEnvVariable(vars, name('SECRET_EXPIRES_AT'));
  const credentials = {
    clientId: requireEnvVariable(vars, name('CLIENT_ID')),
    clientSecret: requireEnvVariable(vars, name('CLIENT_SECRET')),
    ...(secretCreatedAt !== undefined && { secretCreatedAt }),
    ...(secretExpiresAt !== undefined && { secretExpiresAt }),
  };
  const baseUrl = requireEnvVariable(vars, name('BASE_URL'));
  if (scheme !== 'oauth2') return { baseUrl, credentials };
  const secondary = readEnvVariable(vars, name('SUBSCRIPTION_KEY_SECONDARY'));
  return {
    baseUrl,
    tokenUrl: requireEnvVariable(vars, [name('TOKEN_URL'), 'PARTNER_APIS_TOKEN_URL']),
    credentials: {
      ...credentials,
      subscriptionKeys: {
        primary: requireEnvVariable(vars, name('SUBSCRIPTION_KEY')),
        ...(secondary !== undefined && { secondary }),
      },
    },
  };
}
