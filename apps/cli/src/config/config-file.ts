import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../usage-error.js';
import { SERVICES, SETTING_SUFFIX, type ServiceName, type SettingName } from './services.js';

/** The environments a config file can describe. */
export const ENVIRONMENTS = ['production', 'uat', 'sandbox'] as const;

export type EnvironmentName = (typeof ENVIRONMENTS)[number];

/** The settings of one service in one environment; each maps to a `PARTNER_APIS_*` variable. */
export type ServiceSettings = Partial<Record<SettingName, string>>;

/** One environment: a shared token URL and the settings of each service. */
export type EnvironmentSettings = { tokenUrl?: string } & Partial<
  Record<ServiceName, ServiceSettings>
>;

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
  environments?: Partial<Record<EnvironmentName, EnvironmentSettings>>;
  sandbox?: EmbeddedSandboxSettings;
}

/** The file looked for in the working directory when neither `--config` nor a variable names one. */
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

  count(value: unknown, path: string): number {
    if (!Number.isInteger(value) || (value as number) < 0) {
      this.fail(path, 'must be a whole number of at least 0');
    }
    return value as number;
  }
}

function checkEnvironment(shape: ConfigShape, value: unknown, path: string): EnvironmentSettings {
  const record = shape.record(value, path, ['tokenUrl', ...SERVICES]);
  const environment: EnvironmentSettings = {};
  if (record.tokenUrl !== undefined) {
    environment.tokenUrl = shape.string(record.tokenUrl, `${path}.tokenUrl`);
  }
  const settingNames = Object.keys(SETTING_SUFFIX) as SettingName[];
  for (const service of SERVICES) {
    if (record[service] === undefined) continue;
    const servicePath = `${path}.${service}`;
    const settings = shape.record(record[service], servicePath, settingNames);
    environment[service] = Object.fromEntries(
      Object.entries(settings).map(([key, setting]) => [
        key,
        shape.string(setting, `${servicePath}.${key}`),
      ]),
    );
  }
  return environment;
}

/**
 * Checks the parsed content of a config file and returns it typed; a mistake is a `UsageError`
 * that names the file and the setting.
 *
 * @example
 * const config = parseConfigFile(JSON.parse(text), 'partner-apis.config.json');
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
  if (record.sandbox !== undefined) {
    const sandbox = shape.record(record.sandbox, 'sandbox', ['size', 'seed']);
    config.sandbox = {};
    if (sandbox.size !== undefined) config.sandbox.size = shape.count(sandbox.size, 'sandbox.size');
    if (sandbox.seed !== undefined) config.sandbox.seed = shape.count(sandbox.seed, 'sandbox.seed');
  }
  return config;
}

/** Where the config came from, and what it says. */
export interface LoadedConfig {
  readonly path: string | undefined;
  readonly config: ConfigFile;
}

/**
 * Reads the config file: the one named (by `--config` or `PARTNER_APIS_CONFIG`), which must
 * exist, or else `partner-apis.config.json` in the working directory when there is one.
 *
 * @example
 * const { path, config } = await loadConfigFile(undefined, process.cwd());
 */
export async function loadConfigFile(
  named: string | undefined,
  cwd: string,
): Promise<LoadedConfig> {
  const path = resolve(cwd, named ?? DEFAULT_CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    if (missing && named === undefined) return { path: undefined, config: {} };
    throw new UsageError(
      `cannot read the config file ${path}: ${missing ? 'it does not exist' : (error as Error).message}`,
    );
  }
  let content: unknown;
  try {
    content = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  return { path, config: parseConfigFile(content, path) };
}
