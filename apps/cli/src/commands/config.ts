import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  withOutputOptions,
  type CommandContext,
  type GlobalOptions,
  type OutputOptions,
} from '../command-context.js';
import {
  DEFAULT_CONFIG_FILE,
  loadConfigFile,
  parseConfigFile,
  parseUserConfigFile,
  userConfigPath,
} from '../config/config-file.js';
import { backgroundSandboxFile, findBackgroundSandbox } from '../sandbox/background-sandbox.js';
import {
  LIABILITY_MAJOR_VARIABLE,
  SECRET_SUFFIXES,
  SERVICES,
  SETTING_SUFFIX,
  SHARED_TOKEN_URL_VARIABLE,
  VARIABLE_PREFIX,
} from '../config/services.js';
import type { Settings } from '../config/settings.js';
import type { EnvironmentName } from '../config/services.js';
import type { FileSettings } from '../config/config-file.js';
import { ConfigurationError } from '@partner-apis/errors';
import { openSession } from '../service-session.js';
import { readServiceList, variablePrefix } from '../service-registry.js';
import type { OperationOptions } from './operation-extension.js';
import { operationService } from './operations.js';
import { reportError } from '../error-report.js';
import { examples, inColour } from '../help-format.js';
import { writeRecord, writeRecords } from '../output/record-writer.js';
import { visibleText } from '../output/safe-text.js';
import { DataError, UsageError } from '../usage-error.js';

interface SettingRow extends Record<string, unknown> {
  setting: string;
  value: string;
  source: string;
}

/**
 * A credential as `aws configure list` shows one: its last four characters, when it is long
 * enough for them to give nothing away.
 */
export function masked(value: string): string {
  return value.length >= 16 ? `${'*'.repeat(value.length - 4)}${value.slice(-4)}` : '****';
}

/** The config file's name for a variable: `PARTNER_APIS_EXPOSURE_CLIENT_ID` → `exposure.clientId`. */
function settingOf(variable: string): string {
  if (variable === SHARED_TOKEN_URL_VARIABLE) return 'tokenUrl';
  if (variable === LIABILITY_MAJOR_VARIABLE) return 'liability.major';
  const major = /^PARTNER_APIS_LIABILITY_V(\d+)_BASE_URL$/.exec(variable);
  if (major !== null) return `liability.baseUrls.${major[1]}`;
  for (const service of SERVICES) {
    const prefix = VARIABLE_PREFIX[service];
    if (!variable.startsWith(prefix)) continue;
    const suffix = variable.slice(prefix.length);
    const name = Object.entries(SETTING_SUFFIX).find(([, value]) => value === suffix)?.[0];
    return `${service}.${name ?? suffix}`;
  }
  return variable;
}

function rows(settings: Settings, sandbox: string | undefined): SettingRow[] {
  const chosen: SettingRow = {
    setting: settings.profile === undefined ? 'environment' : 'profile',
    value: settings.profile ?? settings.environment ?? '',
    source: settings.chosenBy ?? 'none chosen',
  };
  const files: SettingRow[] = [
    {
      setting: 'project config file',
      value: settings.configPath ?? '',
      source:
        settings.configPath === undefined
          ? 'none found here or above'
          : '--config, PARTNER_APIS_CONFIG, or found here or above',
    },
    {
      setting: 'user config file',
      value: settings.userConfigPath ?? '',
      source: settings.userConfigPath === undefined ? 'none' : 'XDG_CONFIG_HOME or HOME',
    },
  ];
  const values = Object.keys(settings.variables)
    .sort()
    .map((variable) => {
      const value = settings.variables[variable] ?? '';
      const secret = SECRET_SUFFIXES.some((suffix) => variable.endsWith(`_${suffix}`));
      return {
        setting: settingOf(variable),
        value: secret ? masked(value) : value,
        source: settings.sources[variable] ?? variable,
      };
    });
  const where: SettingRow[] =
    sandbox === undefined
      ? []
      : [{ setting: 'requests go to', value: sandbox, source: 'nothing configured' }];
  return [chosen, ...files, ...values, ...where];
}

/** The file `config set` writes, and the object in it the setting goes to. */
interface SetTarget {
  readonly file: string;
  readonly within: readonly string[];
  readonly user: boolean;
}

/** Where `config set` writes: the profile of `--profile`, the environment of `--env`. */
async function setTarget(context: CommandContext, globals: GlobalOptions): Promise<SetTarget> {
  const { env, cwd } = context.io;
  const profile = globals.profile ?? (env.PARTNER_APIS_PROFILE || undefined);
  const environment = globals.env ?? (env.PARTNER_APIS_ENV || undefined);
  if (profile !== undefined && globals.env === undefined) {
    const file = userConfigPath(env);
    if (file === undefined) throw new UsageError('cannot find your config file: HOME is not set');
    return { file, within: ['profiles', profile], user: true };
  }
  if (environment !== undefined) {
    const { path } = await loadConfigFile(
      globals.config ?? (env.PARTNER_APIS_CONFIG || undefined),
      cwd,
    );
    return {
      file: path ?? join(cwd, DEFAULT_CONFIG_FILE),
      within: ['environments', environment],
      user: false,
    };
  }
  throw new UsageError(
    'config set needs where to write: --profile NAME (your own config file) or --env NAME (partner-apis.config.json)',
  );
}

/** A setting's value as the config file holds it: majors and sandbox sizes are numbers. */
function typedValue(setting: string, value: string): string | number {
  return /^(liability\.major|sandbox\.(size|seed))$/.test(setting) && /^\d+$/.test(value)
    ? Number(value)
    : value;
}

/**
 * Creates the client of every service the settings of `target` configure, as a command would:
 * a value a command would refuse (a base URL that is no https URL, a tier that is none) is
 * refused now, named as the file names it; settings still missing are not, as they may follow.
 */
async function checkClients(
  context: CommandContext,
  target: SetTarget,
  settings: FileSettings | undefined,
): Promise<void> {
  const { variables = {}, paths = {} } = settings ?? {};
  const environment = target.user ? undefined : (target.within[1] as EnvironmentName);
  const session = openSession(
    {
      environment,
      profile: target.user ? target.within[1] : undefined,
      chosenBy: undefined,
      userConfigPath: undefined,
      configPath: undefined,
      origin: { file: target.file, object: target.within.join('.') },
      readsVariables: false,
      embeddedSandbox: false,
      variables,
      sources: Object.fromEntries(
        Object.entries(paths).map(([variable, path]) => [variable, `${target.file}: ${path}`]),
      ),
      configuredServices: [],
      sandbox: {},
    },
    context.io,
    { note: () => {} },
  );
  const configured = readServiceList().filter((entry) =>
    Object.keys(variables).some((variable) => variable.startsWith(variablePrefix(entry.name))),
  );
  for (const entry of configured) {
    const service = await operationService(context, entry);
    try {
      await service.client(session, {} as OperationOptions);
    } catch (error) {
      const missing = /^(is|are) (not set|missing from)/;
      if (!(error instanceof ConfigurationError) || !missing.test(error.problem)) throw error;
    }
  }
}

/**
 * Writes one setting into a config file, checked as the file is when read (a mistake is a usage
 * error naming the setting, and nothing is written), replaced in one step. A secret goes only
 * into your own file, never into the project's, which is often committed.
 */
async function setSetting(
  context: CommandContext,
  globals: GlobalOptions,
  setting: string,
  value: string,
): Promise<string> {
  const target = await setTarget(context, globals);
  const secret = /(clientSecret|subscriptionKey)/.test(setting);
  if (secret && !target.user) {
    throw new UsageError(
      `${setting} is a secret: keep it in a variable, or in a profile of your own config file (--profile NAME), not in ${target.file}`,
    );
  }
  let content: Record<string, unknown> = {};
  try {
    content = JSON.parse(await readFile(target.file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new UsageError(`cannot update ${target.file}: ${(error as Error).message}`);
    }
  }
  const path = [...target.within, ...setting.split('.')];
  let at = content;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    at = (at[key] = typeof next === 'object' && next !== null ? next : {}) as Record<
      string,
      unknown
    >;
  }
  at[path.at(-1)!] = typedValue(setting, value);
  // The same checks as reading the file: an unknown setting is refused before anything is written.
  const parsed = target.user
    ? parseUserConfigFile(content, target.file).profiles
    : parseConfigFile(content, target.file).environments;
  const [, name] = target.within as [string, string];
  await checkClients(context, target, parsed?.[name as keyof typeof parsed]);
  const temporary = `${resolve(target.file)}.partial`;
  await mkdir(dirname(temporary), { recursive: true });
  await writeFile(temporary, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  if (!target.user) await chmod(temporary, 0o644);
  await rename(temporary, target.file);
  return `${target.file}: ${path.join('.')}`;
}

/**
 * `partner-apis config list`: the settings in effect and where each came from (a variable, a
 * setting of a config file, a default), credentials masked, as `aws configure list` does.
 */
export function registerConfigCommands(program: Command, context: CommandContext): void {
  const config = program
    .command('config')
    .description('the configuration in effect')
    .addHelpText(
      'after',
      examples([
        'partner-apis config list',
        'partner-apis config get exposure.baseUrl',
        'partner-apis --env uat config set liability.baseUrl https://liability.example.com/v1/uat',
      ]),
    );

  config
    .command('get')
    .description(
      'print the value in effect of one setting, as config list names it (exit code 1 when it is not set)',
    )
    .argument('<setting>', 'e.g. exposure.baseUrl, liability.major, environment')
    .addHelpText(
      'after',
      examples([
        'partner-apis config get exposure.baseUrl',
        'partner-apis --profile acme-uat config get approvals.tier',
      ]),
    )
    .action(async (setting: string, _options: unknown, command: Command) => {
      await context.run(command, async (session) => {
        const row = rows(session.settings, undefined).find((found) => found.setting === setting);
        if (row === undefined || row.value === '') {
          const known = rows(session.settings, undefined).map((found) => found.setting);
          throw new DataError(
            `${setting} is not set (the settings in effect: ${known.join(', ')})`,
          );
        }
        context.io.stdout.write(`${visibleText(row.value)}\n`);
      });
    });

  config
    .command('set')
    .description(
      'write one setting into the profile of --profile (your own config file) or the environment of --env (partner-apis.config.json)',
    )
    .argument('<setting>', 'e.g. exposure.baseUrl, liability.major, approvals.tier')
    .argument('<value>', 'its value')
    .addHelpText(
      'after',
      examples([
        'partner-apis --env uat config set liability.baseUrl https://liability.example.com/v1/uat',
        'partner-apis --profile acme-uat config set approvals.tier silver',
      ]),
    )
    .action(async (setting: string, value: string, _options: unknown, command: Command) => {
      // Not through `run`: the settings in effect may be the very ones still missing.
      try {
        const globals = command.optsWithGlobals<GlobalOptions>();
        context.note(`set ${await setSetting(context, globals, setting, value)}`);
      } catch (error) {
        context.exitCode = reportError(error, {
          write: (text) =>
            context.io.stderr.write(inColour(text, context.io.stderr, context.io.env)),
          // A secret's value is never shown; any other is, so the mistake can be seen.
          secrets: /(secret|key|password|token)/i.test(setting) ? [value] : [],
        });
      }
    });

  withOutputOptions(
    config
      .command('list')
      .description(
        'the settings in effect and where each came from (a variable, a config file, a default); credentials masked',
      )
      .addHelpText(
        'after',
        examples([
          'partner-apis config list',
          'partner-apis --profile acme-uat config list -o json',
        ]),
      ),
  ).action(async (options: OutputOptions, command: Command) => {
    await context.run(command, async (session) => {
      const { settings } = session;
      let sandbox: string | undefined;
      if (settings.embeddedSandbox) {
        const running = await findBackgroundSandbox(backgroundSandboxFile(context.io.env));
        sandbox =
          running === undefined
            ? 'the embedded sandbox, started by each command'
            : `the sandbox of \`partner-apis sandbox start\` at ${running.urls.origin}`;
      }
      const found = rows(settings, sandbox);
      const sink = await context.output(options);
      if (options.format === 'table' && options.columns === undefined) {
        // One line a setting, its source beside its value: a long URL or path wraps, never cut.
        const lines = Object.fromEntries(
          found.map((row) => [
            row.setting,
            row.value === '' ? `(${row.source})` : `${row.value} (${row.source})`,
          ]),
        );
        await writeRecord(lines, 'table', sink, context.writeOptions(options));
      } else {
        await writeRecords(found, options.format, sink, context.writeOptions(options));
      }
      await sink.close();
    });
  });
}
