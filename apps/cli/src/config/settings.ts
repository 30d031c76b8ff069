import { UsageError } from '../usage-error.js';
import {
  DEFAULT_CONFIG_FILE,
  loadConfigFile,
  loadUserConfigFile,
  userConfigPath,
  type EmbeddedSandboxSettings,
  type FileSettings,
} from './config-file.js';
import {
  ENVIRONMENTS,
  LIABILITY_MAJOR_VARIABLE,
  SECRET_SUFFIXES,
  SERVICES,
  SHARED_TOKEN_URL_VARIABLE,
  VARIABLE_PREFIX,
  type EnvironmentName,
  type ServiceName,
} from './services.js';

/** The `PARTNER_APIS_*` variables a command runs with, from the environment and the config file. */
export type Variables = Readonly<Record<string, string>>;

/** Where the settings of a file come from: the file, and the object in it (`profiles.acme`). */
export interface SettingsOrigin {
  readonly file: string;
  readonly object: string;
}

/** What a command runs against. */
export interface Settings {
  /** The environment chosen with `--env`, `PARTNER_APIS_ENV` or the config's default. */
  readonly environment: EnvironmentName | undefined;
  /** The profile of the user's config chosen with `--profile`, `PARTNER_APIS_PROFILE` or its default. */
  readonly profile: string | undefined;
  /** What chose the environment or profile: `--env`, `PARTNER_APIS_PROFILE`, a file's default. */
  readonly chosenBy: string | undefined;
  /** The user's own config file read, if any. */
  readonly userConfigPath: string | undefined;
  /** The project config file read, if any. */
  readonly configPath: string | undefined;
  /** The file and object that settings of the chosen environment or profile are read from. */
  readonly origin: SettingsOrigin | undefined;
  /**
   * False with `--env sandbox` and `--env mock`, which read no `PARTNER_APIS_<SERVICE>_*`
   * variable: credentials and addresses of another environment in the shell are never used.
   */
  readonly readsVariables: boolean;
  /** True when nothing is configured: commands run against a sandbox started in-process. */
  readonly embeddedSandbox: boolean;
  /** Settings of the configured services, as `PARTNER_APIS_*` variables. */
  readonly variables: Variables;
  /** Where each variable's value came from: the variable itself, or `file: setting`. */
  readonly sources: Readonly<Record<string, string>>;
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
  /** `--profile`. */
  readonly profile?: string | undefined;
}

/** `PARTNER_APIS_*` variables that choose what the command line does, not a service's setting. */
const OWN_VARIABLES = /^PARTNER_APIS_(ENV|PROFILE|CONFIG|LOG|SANDBOX(_[A-Z_]+)?)$/;

/** The settings of every service in the environment: of the four, and of any `services.json` adds. */
function environmentVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === '' || OWN_VARIABLES.test(name)) continue;
    if (/^PARTNER_APIS_[A-Z0-9]+_[A-Z0-9_]+$/.test(name)) variables[name] = value;
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

type Choice =
  | { kind: 'environment'; name: EnvironmentName; by: string }
  | { kind: 'profile'; name: string; by: string }
  | undefined;

/** The first of: --profile, --env, PARTNER_APIS_PROFILE, PARTNER_APIS_ENV, the defaults of the files. */
function choose(
  input: SettingsInput,
  defaultEnvironment: EnvironmentName | undefined,
  defaultProfile: string | undefined,
  files: { project: string | undefined; user: string | undefined },
): Choice {
  const flagEnvironment = environmentName(input.environment, '--env');
  if (input.profile !== undefined && flagEnvironment !== undefined) {
    throw new UsageError('--profile and --env both choose where commands go: give one of them');
  }
  if (input.profile !== undefined) return { kind: 'profile', name: input.profile, by: '--profile' };
  if (flagEnvironment !== undefined) {
    return { kind: 'environment', name: flagEnvironment, by: '--env' };
  }
  if (input.env.PARTNER_APIS_PROFILE) {
    return { kind: 'profile', name: input.env.PARTNER_APIS_PROFILE, by: 'PARTNER_APIS_PROFILE' };
  }
  const variableEnvironment = environmentName(input.env.PARTNER_APIS_ENV, 'PARTNER_APIS_ENV');
  if (variableEnvironment !== undefined) {
    return { kind: 'environment', name: variableEnvironment, by: 'PARTNER_APIS_ENV' };
  }
  if (defaultEnvironment !== undefined) {
    return {
      kind: 'environment',
      name: defaultEnvironment,
      by: `${files.project}: defaultEnvironment`,
    };
  }
  if (defaultProfile !== undefined) {
    return { kind: 'profile', name: defaultProfile, by: `${files.user}: defaultProfile` };
  }
  return undefined;
}

/**
 * Works out what a command runs against. Variables win over the config files. A profile of the
 * user's config (`--profile`) or an environment of `partner-apis.config.json` (`--env`) gives
 * the settings; with `--env sandbox`, `PARTNER_APIS_<SERVICE>_*` variables are ignored, so
 * credentials of another environment in the shell are never used by mistake. When no service
 * has any setting, commands use the embedded sandbox; `production` and `uat` must be configured.
 */
export async function resolveSettings(input: SettingsInput): Promise<Settings> {
  const { env } = input;
  const { path, config } = await loadConfigFile(
    input.configFile ?? (env.PARTNER_APIS_CONFIG || undefined),
    input.cwd,
  );
  const user = await loadUserConfigFile(env);
  const choice = choose(input, config.defaultEnvironment, user.config.defaultProfile, {
    project: path,
    user: user.path,
  });
  let fileSettings: FileSettings | undefined;
  let origin: SettingsOrigin | undefined;
  if (choice?.kind === 'profile') {
    const file = user.path ?? userConfigPath(env) ?? 'the user config file';
    fileSettings = user.config.profiles?.[choice.name];
    if (fileSettings === undefined) {
      const known = Object.keys(user.config.profiles ?? {});
      throw new UsageError(
        `there is no profile ${choice.name} in ${file}` +
          (known.length === 0 ? ' (it has none)' : `; the profiles are ${known.join(', ')}`),
      );
    }
    origin = { file, object: `profiles.${choice.name}` };
  } else if (choice?.kind === 'environment') {
    fileSettings = config.environments?.[choice.name];
    origin = { file: path ?? DEFAULT_CONFIG_FILE, object: `environments.${choice.name}` };
  }
  const environment = choice?.kind === 'environment' ? choice.name : undefined;
  const readsVariables = environment !== 'sandbox' && environment !== 'mock';
  const fromEnv = readsVariables ? environmentVariables(env) : {};
  const variables = { ...fileSettings?.variables, ...fromEnv };
  const sources: Record<string, string> = {};
  for (const [name, setting] of Object.entries(fileSettings?.paths ?? {})) {
    sources[name] = `${origin?.file}: ${setting}`;
  }
  for (const name of Object.keys(fromEnv)) sources[name] = name;
  // The liability major chooses a client, not a place: alone it leaves commands on the sandbox.
  const configuredServices = SERVICES.filter((service) =>
    Object.keys(variables).some(
      (name) => name.startsWith(VARIABLE_PREFIX[service]) && name !== LIABILITY_MAJOR_VARIABLE,
    ),
  );
  // A service of `services.json` beside the four is configured by its variables alone.
  const configured = Object.keys(variables).some(
    (name) => name !== LIABILITY_MAJOR_VARIABLE && name !== SHARED_TOKEN_URL_VARIABLE,
  );
  if (!configured && environment === 'mock') {
    // The documents give no address of the mocking services: the settings must.
    throw new UsageError(
      `the mock environment has no settings: add environments.mock.<service>.baseUrl (the ` +
        `address of the upstream's mocking service) to ${path ?? 'partner-apis.config.json'}`,
    );
  }
  if (!configured && (environment === 'production' || environment === 'uat')) {
    throw new UsageError(
      `the ${environment} environment has no settings: add environments.${environment} to ` +
        `${path ?? 'partner-apis.config.json'} or set PARTNER_APIS_<SERVICE>_* variables`,
    );
  }
  return {
    environment,
    profile: choice?.kind === 'profile' ? choice.name : undefined,
    chosenBy: choice?.by,
    configPath: path,
    userConfigPath: user.path,
    origin,
    readsVariables,
    embeddedSandbox: !configured,
    variables,
    sources,
    configuredServices,
    sandbox: {
      size: sandboxNumber(
        env,
        'PARTNER_APIS_SANDBOX_SIZE',
        config.sandbox?.size ?? user.config.sandbox?.size,
      ),
      seed: sandboxNumber(
        env,
        'PARTNER_APIS_SANDBOX_SEED',
        config.sandbox?.seed ?? user.config.sandbox?.seed,
      ),
    },
  };
}

/**
 * Where a variable's value came from, for messages: the variable's name, or the config file and
 * setting (`partner-apis.config.json: environments.uat.liability.baseUrl`).
 */
export function settingName(settings: Pick<Settings, 'sources'>, variable: string): string {
  return settings.sources[variable] ?? variable;
}

/**
 * The credential values among the variables, so messages can blank them out.
 */
export function secretValues(variables: Variables): string[] {
  return Object.entries(variables)
    .filter(([name]) => SECRET_SUFFIXES.some((suffix) => name.endsWith(`_${suffix}`)))
    .map(([, value]) => value);
}
