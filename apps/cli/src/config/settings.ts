import { UsageError } from '../usage-error.js';
import {
  ENVIRONMENTS,
  loadConfigFile,
  type EmbeddedSandboxSettings,
  type EnvironmentName,
  type EnvironmentSettings,
} from './config-file.js';
import {
  SECRET_SUFFIXES,
  SERVICES,
  SETTING_SUFFIX,
  SHARED_TOKEN_URL_VARIABLE,
  VARIABLE_PREFIX,
  type ServiceName,
  type SettingName,
} from './services.js';

/** The `PARTNER_APIS_*` variables a command runs with, from the environment and the config file. */
export type Variables = Readonly<Record<string, string>>;

/** What a command runs against. */
export interface Settings {
  /** The environment chosen with `--env`, `PARTNER_APIS_ENV` or the config's default. */
  readonly environment: EnvironmentName | undefined;
  /** The config file read, if any. */
  readonly configPath: string | undefined;
  /** True when nothing is configured: commands run against a sandbox started in-process. */
  readonly embeddedSandbox: boolean;
  /** Settings of the configured services, as `PARTNER_APIS_*` variables. */
  readonly variables: Variables;
  /** The services that have at least one setting. */
  readonly configuredServices: readonly ServiceName[];
  readonly sandbox: EmbeddedSandboxSettings;
}

/** What `resolveSettings` starts from. */
export interface SettingsInput {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** `--config`. */
  readonly configFile?: string | undefined;
  /** `--env`. */
  readonly environment?: string | undefined;
}

function fileVariables(environment: EnvironmentSettings | undefined): Record<string, string> {
  const variables: Record<string, string> = {};
  if (environment === undefined) return variables;
  if (environment.tokenUrl !== undefined)
    variables[SHARED_TOKEN_URL_VARIABLE] = environment.tokenUrl;
  for (const service of SERVICES) {
    for (const [name, value] of Object.entries(environment[service] ?? {})) {
      variables[`${VARIABLE_PREFIX[service]}${SETTING_SUFFIX[name as SettingName]}`] = value;
    }
  }
  return variables;
}

function environmentVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  const prefixes = Object.values(VARIABLE_PREFIX);
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === '') continue;
    if (name === SHARED_TOKEN_URL_VARIABLE || prefixes.some((prefix) => name.startsWith(prefix))) {
      variables[name] = value;
    }
  }
  return variables;
}

function environmentName(value: string | undefined, source: string): EnvironmentName | undefined {
  if (value === undefined || value === '') return undefined;
  if (!(ENVIRONMENTS as readonly string[]).includes(value)) {
    throw new UsageError(`${source} must be one of ${ENVIRONMENTS.join(', ')} (got "${value}")`);
  }
  return value as EnvironmentName;
}

function sandboxNumber(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number | undefined,
): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text)) throw new UsageError(`${name} must be a whole number (got "${text}")`);
  return Number(text);
}

/**
 * Works out what a command runs against. Variables win over the config file. With
 * `--env sandbox`, `PARTNER_APIS_<SERVICE>_*` variables are ignored, so credentials of another
 * environment in the shell are never used by mistake. When no service has any setting, commands
 * use the embedded sandbox; `production` and `uat` must be configured.
 *
 * @example
 * const settings = await resolveSettings({ env: process.env, cwd: process.cwd(), environment: 'uat' });
 */
export async function resolveSettings(input: SettingsInput): Promise<Settings> {
  const { env } = input;
  const { path, config } = await loadConfigFile(
    input.configFile ?? (env.PARTNER_APIS_CONFIG || undefined),
    input.cwd,
  );
  const environment =
    environmentName(input.environment, '--env') ??
    environmentName(env.PARTNER_APIS_ENV, 'PARTNER_APIS_ENV') ??
    config.defaultEnvironment;
  const fromFile = fileVariables(environment && config.environments?.[environment]);
  const fromEnv = environment === 'sandbox' ? {} : environmentVariables(env);
  const variables = { ...fromFile, ...fromEnv };
  const configuredServices = SERVICES.filter((service) =>
    Object.keys(variables).some((name) => name.startsWith(VARIABLE_PREFIX[service])),
  );
  if (configuredServices.length === 0 && (environment === 'production' || environment === 'uat')) {
    throw new UsageError(
      `the ${environment} environment has no settings: add environments.${environment} to ` +
        `${path ?? 'partner-apis.config.json'} or set PARTNER_APIS_<SERVICE>_* variables`,
    );
  }
  return {
    environment,
    configPath: path,
    embeddedSandbox: configuredServices.length === 0,
    variables,
    configuredServices,
    sandbox: {
      size: sandboxNumber(env, 'PARTNER_APIS_SANDBOX_SIZE', config.sandbox?.size),
      seed: sandboxNumber(env, 'PARTNER_APIS_SANDBOX_SEED', config.sandbox?.seed),
    },
  };
}

/**
 * The credential values among the variables, so messages can blank them out.
 *
 * @example
 * const secrets = secretValues(settings.variables);
 */
export function secretValues(variables: Variables): string[] {
  return Object.entries(variables)
    .filter(([name]) => SECRET_SUFFIXES.some((suffix) => name.endsWith(`_${suffix}`)))
    .map(([, value]) => value);
}
