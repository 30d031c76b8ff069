import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import type { CliIo } from './cli-io.js';
import {
  createCommandContext,
  environmentOption,
  examples,
  type CliDependencies,
} from './command-context.js';
import { registerApprovalsCommands } from './commands/approvals.js';
import {
  COMPLETE_COMMAND,
  completeWords,
  registerCompletionCommand,
} from './commands/completion.js';
import { registerCredentialsCommands } from './commands/credentials.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerExposureCommands } from './commands/exposure.js';
import { registerLiabilityCommands } from './commands/liability.js';
import { registerRiskEngineeringCommands } from './commands/riskengineering.js';
import { registerSandboxCommands } from './commands/sandbox.js';
import { reportError } from './error-report.js';
import { ExitCode } from './exit-codes.js';

const ENVIRONMENT_HELP = `
Configuration:
  With no credentials configured, every command starts an embedded sandbox on 127.0.0.1 and
  says so on stderr. To use a real environment, set PARTNER_APIS_<SERVICE>_* variables
  (SERVICE: EXPOSURE, RISKENGINEERING, LIABILITY, APPROVALS; e.g. _BASE_URL, _CLIENT_ID,
  _CLIENT_SECRET), or write partner-apis.config.json with environments production, uat and
  sandbox and pick one with --env or PARTNER_APIS_ENV, or keep named profiles in
  ~/.config/partner-apis/config.json and pick one with --profile. Variables win over files.

Exit codes: 0 ok, 1 API error or invalid data, 2 usage or configuration error.`;

/** The version of this CLI, from its package.json (one level above `src/` and `dist/`). */
function cliVersion(): string {
  const manifest = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  return manifest.version;
}

/**
 * Builds the `partner-apis` program for one run.
 *
 * @example
 * const { program, context } = createProgram(io);
 * await program.parseAsync(['approvals', 'list', '--employee', '100234'], { from: 'user' });
 */
export function createProgram(io: CliIo, dependencies: CliDependencies = {}) {
  const context = createCommandContext(io, dependencies);
  const program = new Command('partner-apis')
    .description(
      'Exposure, risk engineering, liability and approvals APIs of the partner platform from the command line.',
    )
    .addOption(environmentOption())
    .option(
      '-p, --profile <name>',
      'profile of your own config file, $XDG_CONFIG_HOME/partner-apis/config.json (default: PARTNER_APIS_PROFILE, else its defaultProfile)',
    )
    .option(
      '-c, --config <file>',
      'config file (default: PARTNER_APIS_CONFIG, else ./partner-apis.config.json)',
    )
    .option(
      '--debug',
      'log every request and response to stderr (credentials redacted), and where an internal error happened',
    )
    .version(
      `partner-apis ${cliVersion()} (node ${process.version}, ${process.platform}-${process.arch})`,
      '-V, --version',
      'print the version',
    )
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .exitOverride()
    .showHelpAfterError('(add --help for usage and examples)')
    .addHelpText(
      'after',
      examples([
        'partner-apis demo',
        'partner-apis exposure locations --format ndjson > locations.ndjson',
        'partner-apis liability quote create --seller SEL-000001 --country-of-sales EU-ASIA --territory NON-US',
        'partner-apis --env uat approvals list --employee 100234',
      ]) + `\n${ENVIRONMENT_HELP}`,
    );
  registerExposureCommands(program, context);
  registerRiskEngineeringCommands(program, context);
  registerLiabilityCommands(program, context);
  registerApprovalsCommands(program, context);
  registerCredentialsCommands(program, context);
  registerDemoCommand(program, context);
  registerSandboxCommands(program, context);
  registerCompletionCommand(program, context);
  return { program, context };
}

/**
 * Runs `partner-apis` with the arguments after the program name and returns the exit code:
 * 0 ok, 1 API error or invalid data, 2 usage or configuration error.
 *
 * @example
 * process.exitCode = await runCli(process.argv.slice(2), {
 *   stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(),
 * });
 */
export async function runCli(
  args: readonly string[],
  io: CliIo,
  dependencies: CliDependencies = {},
): Promise<number> {
  const { program, context } = createProgram(io, dependencies);
  if (args[0] === COMPLETE_COMMAND) {
    const candidates = completeWords(program, args.slice(1));
    io.stdout.write(candidates.map((candidate) => `${candidate}\n`).join(''));
    return ExitCode.ok;
  }
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    // Commander has already printed its message (or the help) to stderr.
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    // Outside a command's own error report: still a message and an exit code, never a stack.
    return reportError(error, { write: (text) => io.stderr.write(text), secrets: [] });
  }
  return context.exitCode;
}
