import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { readServiceList, variablePrefix } from '../service-registry.js';
import { UsageError } from '../usage-error.js';
import {
  ENVIRONMENTS,
  LIABILITY_MAJOR_VARIABLE,
  SERVICES,
  SETTING_SUFFIX,
  SHARED_TOKEN_URL_VARIABLE,
  VARIABLE_PREFIX,
  liabilityMajorBaseUrlVariable,
  type EnvironmentName,
  type SettingName,
} from './services.js';

/**
 * One environment (or profile) of a config file, as the `PARTNER_APIS_*` variables it stands
 * for, and the setting each came from, so messages name what the user wrote.
 */
export interface FileSettings {
  /** Variable name → value. */
  readonly variables: Readonly<Record<string, string>>;
  /** Variable name → the setting, e.g. `environments.uat.liability.clientId`. */
  readonly paths: Readonly<Record<string, string>>;
}

/** Sizes and seed of the embedded sandbox. */
export interface EmbeddedSandboxSettings {
  /** Records in each generated collection (locations, gradings). */
  size?: number;
  /** The same seed gives the same records. */
  seed?: number;
}

/** The content of `partner-apis.config.json`. */
export interface ConfigFile {
  defaultEnvironment?: EnvironmentName;
  environments?: Partial<Record<EnvironmentName, FileSettings>>;
  sandbox?: EmbeddedSandboxSettings;
}

/**
 * The content of the user's own config file (`$XDG_CONFIG_HOME/partner-apis/config.json`):
 * named profiles, each shaped like an environment of `partner-apis.config.json`.
 */
export interface UserConfigFile {
  defaultProfile?: string;
  profiles?: Readonly<Record<string, FileSettings>>;
  sandbox?: EmbeddedSandboxSettings;
}

/**
 * The file looked for in the working directory and the folders above it when neither
 * `--config` nor a variable names one.
 */
export const DEFAULT_CONFIG_FILE = 'partner-apis.config.json';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class ConfigShape {
  constructor(private readonly file: string) {}

  fail(path: string, problem: string): never {
    throw new UsageError(`${this.file}: ${path} ${problem}`);
  }

  record(value: unknown, path: string, allowed: readonly string[]): Record<string, unknown> {
    if (!isRecord(value)) this.fail(path, 'must be an object');
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) {
        this.fail(`${path}.${key}`, `is not a known setting (known: ${allowed.join(', ')})`);
      }
    }
    return value;
  }

  string(value: unknown, path: string): string {
    if (typeof value !== 'string' || value === '') this.fail(path, 'must be a non-empty string');
    return value;
  }

  oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
    if (!allowed.includes(value as T)) this.fail(path, `must be one of ${allowed.join(', ')}`);
    return value as T;
  }

  major(value: unknown, path: string): number {
    if (!Number.isInteger(value) || (value as number) < 1) {
      this.fail(path, 'must be a major version, a whole number of at least 1');
    }
    return value as number;
  }

  count(value: unknown, path: string): number {
    if (!Number.isInteger(value) || (value as number) < 0) {
      this.fail(path, 'must be a whole number of at least 0');
    }
    return value as number;
  }
}

/** The keys of a service's settings: the flat names, and `subscriptionKeys` as the sandbox prints it. */
const SERVICE_KEYS = [...(Object.keys(SETTING_SUFFIX) as SettingName[]), 'subscriptionKeys'];

/** Liability also has the major to call, and the base URL of each major where it differs. */
const LIABILITY_KEYS = [...SERVICE_KEYS, 'major', 'baseUrls'];

/** The services of `services.json` beside the four, whose settings are named by their variables. */
function pluggedServices(): string[] {
  const four = ['exposure', 'riskengineering', 'liability', 'approvals'];
  return readServiceList()
    .map((entry) => entry.name)
    .filter((name) => !four.includes(name));
}

function checkEnvironment(shape: ConfigShape, value: unknown, path: string): FileSettings {
  const plugged = pluggedServices();
  const record = shape.record(value, path, ['tokenUrl', ...SERVICES, ...plugged]);
  const variables: Record<string, string> = {};
  const paths: Record<string, string> = {};
  const set = (variable: string, setting: unknown, settingPath: string) => {
    if (variables[variable] !== undefined) {
      shape.fail(settingPath, `repeats ${paths[variable]}; give one of them`);
    }
    variables[variable] = shape.string(setting, settingPath);
    paths[variable] = settingPath;
  };
  if (record.tokenUrl !== undefined)
    set(SHARED_TOKEN_URL_VARIABLE, record.tokenUrl, `${path}.tokenUrl`);
  for (const service of SERVICES) {
    if (record[service] === undefined) continue;
    const servicePath = `${path}.${service}`;
    const settings = shape.record(
      record[service],
      servicePath,
      service === 'liability' ? LIABILITY_KEYS : SERVICE_KEYS,
    );
    const prefix = VARIABLE_PREFIX[service];
    for (const [key, setting] of Object.entries(settings)) {
      if (key === 'major') {
        const major = shape.major(setting, `${servicePath}.major`);
        set(LIABILITY_MAJOR_VARIABLE, String(major), `${servicePath}.major`);
        continue;
      }
      if (key === 'baseUrls') {
        // `{ "2": "https://…/v2/uat" }`, the shape `partner-apis sandbox start` prints.
        const majors = isRecord(setting) ? Object.keys(setting) : [];
        const urls = shape.record(setting, `${servicePath}.baseUrls`, majors);
        for (const [major, url] of Object.entries(urls)) {
          if (!/^[1-9]\d*$/.test(major)) {
            shape.fail(`${servicePath}.baseUrls.${major}`, 'is not a major version such as 2');
          }
          set(liabilityMajorBaseUrlVariable(major), url, `${servicePath}.baseUrls.${major}`);
        }
        continue;
      }
      if (key !== 'subscriptionKeys') {
        set(`${prefix}${SETTING_SUFFIX[key as SettingName]}`, setting, `${servicePath}.${key}`);
        continue;
      }
      // `{ primary, secondary }`, the shape of the sandbox's printed credentials.
      const keys = shape.record(setting, `${servicePath}.subscriptionKeys`, [
        'primary',
        'secondary',
      ]);
      if (keys.primary !== undefined) {
        set(`${prefix}SUBSCRIPTION_KEY`, keys.primary, `${servicePath}.subscriptionKeys.primary`);
      }
      if (keys.secondary !== undefined) {
        set(
          `${prefix}SUBSCRIPTION_KEY_SECONDARY`,
          keys.secondary,
          `${servicePath}.subscriptionKeys.secondary`,
        );
      }
    }
  }
  for (const name of plugged.filter((service) => record[service] !== undefined)) {
    const settings = shape.record(record[name], `${path}.${name}`, Object.keys(record[name] ?? {}));
    // `baseUrl` → `PARTNER_APIS_MUSEUM_BASE_URL`, as the four services' settings are named.
    for (const [key, setting] of Object.entries(settings)) {
      const suffix = key.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase();
      set(`${variablePrefix(name)}${suffix}`, setting, `${path}.${name}.${key}`);
    }
  }
  return { variables, paths };
}

function checkSandbox(shape: ConfigShape, value: unknown): EmbeddedSandboxSettings {
  const sandbox = shape.record(value, 'sandbox', ['size', 'seed']);
  const settings: EmbeddedSandboxSettings = {};
  if (sandbox.size !== undefined) settings.size = shape.count(sandbox.size, 'sandbox.size');
  if (sandbox.seed !== undefined) settings.seed = shape.count(sandbox.seed, 'sandbox.seed');
  return settings;
}

/**
 * Checks the parsed content of a config file and returns it typed; a mistake is a `UsageError`
 * that names the file and the setting.
 */
export function parseConfigFile(content: unknown, file: string): ConfigFile {
  const shape = new ConfigShape(file);
  const record = shape.record(content, '(top level)', [
    '$schema',
    'defaultEnvironment',
    'environments',
    'sandbox',
  ]);
  const config: ConfigFile = {};
  if (record.defaultEnvironment !== undefined) {
    config.defaultEnvironment = shape.oneOf(
      record.defaultEnvironment,
      'defaultEnvironment',
      ENVIRONMENTS,
    );
  }
  if (record.environments !== undefined) {
    const environments = shape.record(record.environments, 'environments', ENVIRONMENTS);
    config.environments = {};
    for (const name of ENVIRONMENTS) {
      if (environments[name] === undefined) continue;
      config.environments[name] = checkEnvironment(
        shape,
        environments[name],
        `environments.${name}`,
      );
    }
  }
  if (record.sandbox !== undefined) config.sandbox = checkSandbox(shape, record.sandbox);
  return config;
}

/** The JSON content of a config file; `undefined` when it is absent and need not exist. */
async function readJson(path: string, required: boolean): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    if (missing && !required) return undefined;
    throw new UsageError(
      `cannot read the config file ${path}: ${missing ? 'it does not exist' : (error as Error).message}`,
    );
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Where the config came from, and what it says. */
export interface LoadedConfig {
  readonly path: string | undefined;
  readonly config: ConfigFile;
}

/**
 * Reads the config file: the one named (by `--config` or `PARTNER_APIS_CONFIG`), which must
 * exist, or else the nearest `partner-apis.config.json` of the working directory and the
 * folders above it, as git finds its repository from a subfolder.
 */
export async function loadConfigFile(
  named: string | undefined,
  cwd: string,
): Promise<LoadedConfig> {
  if (named !== undefined) {
    const path = resolve(cwd, named);
    return { path, config: parseConfigFile(await readJson(path, true), path) };
  }
  // Bounded by the depth of the path: the root is its own parent.
  for (let folder = resolve(cwd), parent = ''; folder !== parent; folder = dirname(folder)) {
    parent = folder;
    const path = join(folder, DEFAULT_CONFIG_FILE);
    const content = await readJson(path, false);
    if (content !== undefined) return { path, config: parseConfigFile(content, path) };
  }
  return { path: undefined, config: {} };
}

/** A profile name: letters, digits, `.`, `_` and `-`, so it is easy to type after `--profile`. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Checks the parsed content of the user's config file and returns it typed; a mistake is a
 * `UsageError` that names the file and the setting.
 */
export function parseUserConfigFile(content: unknown, file: string): UserConfigFile {
  const shape = new ConfigShape(file);
  const record = shape.record(content, '(top level)', [
    '$schema',
    'defaultProfile',
    'profiles',
    'sandbox',
  ]);
  const config: UserConfigFile = {};
  const profiles: Record<string, FileSettings> = {};
  if (record.profiles !== undefined) {
    const names = shape.record(record.profiles, 'profiles', Object.keys(record.profiles as object));
    for (const [name, value] of Object.entries(names)) {
      if (!PROFILE_NAME.test(name)) {
        shape.fail(
          `profiles.${name}`,
          'is not a profile name: use letters, digits, ".", "_" and "-"',
        );
      }
      profiles[name] = checkEnvironment(shape, value, `profiles.${name}`);
    }
    config.profiles = profiles;
  }
  if (record.defaultProfile !== undefined) {
    config.defaultProfile = shape.oneOf(
      record.defaultProfile,
      'defaultProfile',
      Object.keys(profiles),
    );
  }
  if (record.sandbox !== undefined) config.sandbox = checkSandbox(shape, record.sandbox);
  return config;
}

/**
 * Where the user's config file is: `$XDG_CONFIG_HOME/partner-apis/config.json`, else
 * `~/.config/partner-apis/config.json`.
 */
export function userConfigPath(env: NodeJS.ProcessEnv): string | undefined {
  const base = env.XDG_CONFIG_HOME || (env.HOME ? join(env.HOME, '.config') : undefined);
  return base === undefined ? undefined : join(base, 'partner-apis', 'config.json');
}

/**
 * Reads the user's config file, when there is one.
 */
export async function loadUserConfigFile(
  env: NodeJS.ProcessEnv,
): Promise<{ readonly path: string | undefined; readonly config: UserConfigFile }> {
  const path = userConfigPath(env);
  if (path === undefined) return { path: undefined, config: {} };
  const content = await readJson(path, false);
  return content === undefined
    ? { path: undefined, config: {} }
    : { path, config: parseUserConfigFile(content, path) };
}
