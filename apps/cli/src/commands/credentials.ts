import { checkSecretExpiry, SECRET_EXPIRY_WARNING_DAYS } from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import type { Command } from 'commander';
import { withOutputOptions, type CommandContext, type OutputOptions } from '../command-context.js';
import { examples } from '../help-format.js';
import { SERVICE_TITLE, VARIABLE_PREFIX, type ServiceName } from '../config/services.js';
import { settingName, type Settings } from '../config/settings.js';
import { ExitCode } from '../exit-codes.js';
import { writeRecords } from '../output/record-writer.js';

interface SecretStatus extends Record<string, unknown> {
  service: string;
  expiresAt: string;
  daysLeft: number | null;
  status: 'ok' | 'warn' | 'expired' | 'unknown';
}

function secretStatus(service: ServiceName, settings: Settings, now: number): SecretStatus {
  const { variables } = settings;
  const prefix = VARIABLE_PREFIX[service];
  const created = variables[`${prefix}SECRET_CREATED_AT`];
  const expires = variables[`${prefix}SECRET_EXPIRES_AT`];
  if (created === undefined && expires === undefined) {
    return { service, expiresAt: '', daysLeft: null, status: 'unknown' };
  }
  const variable =
    expires === undefined ? `${prefix}SECRET_CREATED_AT` : `${prefix}SECRET_EXPIRES_AT`;
  try {
    const expiry = checkSecretExpiry(
      expires === undefined ? { secretCreatedAt: created! } : { secretExpiresAt: expires },
      now,
    );
    return {
      service,
      expiresAt: expiry.expiresAt.toISOString().slice(0, 10),
      daysLeft: expiry.daysLeft,
      status: expiry.level,
    };
  } catch (error) {
    if (error instanceof ConfigurationError) {
      throw new ConfigurationError(
        settingName(settings, variable),
        'must be a date such as 2026-01-15',
      );
    }
    throw error;
  }
}

/**
 * Where the date of a secret can be set, naming only what the chosen environment reads: with
 * `--env sandbox` the config file alone, elsewhere the variables and the config file.
 */
function whereToSetDate(service: ServiceName, settings: Settings): string {
  const prefix = VARIABLE_PREFIX[service];
  const inFile =
    settings.origin === undefined
      ? undefined
      : `secretCreatedAt or secretExpiresAt in ${settings.origin.object}.${service} of ${settings.origin.file}`;
  if (!settings.readsVariables) return `set ${inFile}`;
  const variables = `${prefix}SECRET_CREATED_AT or ${prefix}SECRET_EXPIRES_AT`;
  return inFile === undefined ? `set ${variables}` : `set ${variables}, or ${inFile}`;
}

/**
 * `partner-apis credentials check`: how long each configured client secret stays valid.
 */
export function registerCredentialsCommands(program: Command, context: CommandContext): void {
  const credentials = program
    .command('credentials')
    .description('check the credentials of the configured clients')
    .addHelpText('after', examples(['partner-apis credentials check']));

  withOutputOptions(
    credentials
      .command('check')
      .description(
        `days until each configured client secret expires (secrets last one year; warns within ${SECRET_EXPIRY_WARNING_DAYS} days, exit code 1 once one has expired)`,
      )
      .addHelpText(
        'after',
        examples(
          [
            'PARTNER_APIS_LIABILITY_SECRET_CREATED_AT=2025-11-02 partner-apis credentials check',
            'partner-apis credentials check --env production -o json',
          ],
          [
            'The dates come from PARTNER_APIS_<SERVICE>_SECRET_CREATED_AT or _SECRET_EXPIRES_AT, or secretCreatedAt / secretExpiresAt in the config file.',
          ],
        ),
      ),
  ).action(async (options: OutputOptions, command: Command) => {
    await context.run(command, async (session) => {
      const { settings } = session;
      if (settings.embeddedSandbox) {
        context.note('No credentials configured: the embedded sandbox needs none.');
      }
      const now = Date.now();
      const statuses = settings.configuredServices.map((service) =>
        secretStatus(service, settings, now),
      );
      for (const status of statuses) {
        const title = SERVICE_TITLE[status.service as ServiceName];
        if (status.status === 'unknown') {
          context.note(
            `note: the ${title} secret's date is not configured (${whereToSetDate(status.service as ServiceName, settings)})`,
          );
        } else if (status.status === 'warn') {
          context.note(
            `warning: the ${title} secret expires in ${status.daysLeft} days (${status.expiresAt}); set a new one in the customer portal`,
          );
        } else if (status.status === 'expired') {
          context.note(`error: the ${title} secret expired on ${status.expiresAt}`);
        }
      }
      const sink = await context.output(options);
      await writeRecords(statuses, options.format, sink, context.writeOptions(options));
      await sink.close();
      if (statuses.some((status) => status.status === 'expired')) {
        context.exitCode = ExitCode.failure;
      }
    });
  });
}
