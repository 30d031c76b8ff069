import type { Command } from 'commander';
import { withOutputOptions, type CommandContext, type OutputOptions } from '../command-context.js';
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
import { examples } from '../help-format.js';
import { writeRecord, writeRecords } from '../output/record-writer.js';

interface SettingRow extends Record<string, unknown> {
  setting: string;
  value: string;
  source: string;
}

/**
 * A credential as `aws configure list` shows one: its last four characters, when it is long
 * enough for them to give nothing away.
 *
 * @example
 * masked('3f9c1b7e5a2d4c6b'); // → '************4c6b'
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

/**
 * `partner-apis config list`: the settings in effect and where each came from (a variable, a
 * setting of a config file, a default), credentials masked, as `aws configure list` does.
 *
 * @example
 * registerConfigCommands(program, context);
 */
export function registerConfigCommands(program: Command, context: CommandContext): void {
  const config = program
    .command('config')
    .description('the configuration in effect')
    .addHelpText('after', examples(['partner-apis config list']));

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
