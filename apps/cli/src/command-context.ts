import { Option, type Command } from 'commander';
import type { CliIo } from './cli-io.js';
import { ENVIRONMENTS } from './config/config-file.js';
import { resolveSettings } from './config/settings.js';
import { reportError } from './error-report.js';
import { ExitCode } from './exit-codes.js';
import { LIABILITY_MAJORS, type LiabilityMajors } from './liability-majors.js';
import { openOutput, type OutputSink } from './output/output-sink.js';
import { createProgress, type Progress } from './output/progress.js';
import { OUTPUT_FORMATS, type OutputFormat, type WriteOptions } from './output/record-writer.js';
import { visibleText } from './output/safe-text.js';
import { openSession, type ServiceSession } from './service-session.js';

/** The options every data command has. */
export interface OutputOptions {
  format: OutputFormat;
  out?: string;
  /** `--columns`, for table and csv. */
  columns?: string[];
}

/** The options of the program itself, valid before or after the subcommand. */
export interface GlobalOptions {
  env?: string;
  profile?: string;
  config?: string;
  debug?: boolean;
}

/** What a CLI run may be given instead of its defaults; tests add a fixture major this way. */
export interface CliDependencies {
  /** The majors of the liability API the CLI can call (default `LIABILITY_MAJORS`). */
  readonly liabilityMajors?: LiabilityMajors;
}

/** What the actions of the commands share: the process around them and the exit code. */
export interface CommandContext {
  readonly io: CliIo;
  /** The majors of the liability API `--major` chooses from. */
  readonly liabilityMajors: LiabilityMajors;
  exitCode: ExitCode;
  /**
   * Runs an action with the session of the command's global options: resolves the settings,
   * starts the embedded sandbox on demand, closes it afterwards, and reports any error.
   */
  run(command: Command, action: (session: ServiceSession) => Promise<void>): Promise<void>;
  /**
   * Opens stdout or the `--out` file. A file gets its name when the sink is closed; if the
   * action fails first, `run` removes what was written.
   */
  output(options: OutputOptions): Promise<OutputSink>;
  /** A progress line on stderr for a paged read; drawn only on a terminal. */
  progress(label: string, options: OutputOptions): Progress;
  /** Writes a note or warning to stderr; control characters in it are shown as escapes. */
  note(text: string): void;
  /** How the data of a command is written: its columns, the table's width, where warnings go. */
  writeOptions(options: OutputOptions): WriteOptions;
}

/**
 * The width a table on stdout must fit: `COLUMNS` when set (as `ls` and `git` honour it), else
 * the terminal's width; none for a pipe.
 */
function terminalWidth(io: CliIo): number | undefined {
  const fromVariable = Number(io.env.COLUMNS);
  if (Number.isInteger(fromVariable) && fromVariable > 0) return fromVariable;
  return io.stdout.isTTY === true && (io.stdout.columns ?? 0) > 0 ? io.stdout.columns : undefined;
}

/**
 * Creates the context of one CLI run.
 *
 * @example
 * const context = createCommandContext({ stdout, stderr, env: process.env, cwd: process.cwd() });
 */
export function createCommandContext(
  io: CliIo,
  { liabilityMajors = LIABILITY_MAJORS }: CliDependencies = {},
): CommandContext {
  const sinks: OutputSink[] = [];
  const context: CommandContext = {
    io,
    liabilityMajors,
    exitCode: ExitCode.ok,
    async run(command, action) {
      let session: ServiceSession | undefined;
      try {
        const globals = command.optsWithGlobals<GlobalOptions>();
        const settings = await resolveSettings({
          env: io.env,
          cwd: io.cwd,
          configFile: globals.config,
          environment: globals.env,
          profile: globals.profile,
        });
        session = openSession(settings, io, { debug: globals.debug === true });
        await action(session);
      } catch (error) {
        context.exitCode = reportError(error, {
          write: (text) => io.stderr.write(text),
          secrets: session?.secrets() ?? [],
          debug: command.optsWithGlobals<GlobalOptions>().debug,
        });
      } finally {
        // A sink still open here belongs to a failed action: its partial file goes.
        await Promise.all(sinks.splice(0).map((sink) => sink.abort()));
        await session?.close();
      }
    },
    async output(options) {
      const sink = await openOutput(options.out, io.stdout, io.cwd);
      sinks.push(sink);
      return sink;
    },
    progress(label, options) {
      // On a terminal that also shows the data (a table streams there too), a progress line
      // would be torn by the records.
      const dataOnSameTerminal = options.out === undefined && io.stdout.isTTY === true;
      return createProgress(io.stderr, label, !dataOnSameTerminal);
    },
    note(text) {
      io.stderr.write(`${visibleText(text, '\n')}\n`);
    },
    writeOptions(options) {
      return {
        warn: context.note,
        columns: options.columns,
        maxWidth: options.out === undefined ? terminalWidth(io) : undefined,
      };
    },
  };
  return context;
}

/**
 * Adds `--format` and `--out` to a command that prints data.
 *
 * @example
 * withOutputOptions(program.command('locations'));
 */
export function withOutputOptions(command: Command): Command {
  return command
    .addOption(
      new Option('-f, --format <format>', 'output format').choices(OUTPUT_FORMATS).default('table'),
    )
    .option('-o, --out <file>', 'write the data to a file instead of stdout')
    .option(
      '--columns <names>',
      'columns of table and csv, comma-separated; nested fields dotted (address.city)',
      (value: string) =>
        value
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== ''),
    );
}

/**
 * The `--env` option of the program.
 *
 * @example
 * program.addOption(environmentOption());
 */
export function environmentOption(): Option {
  return new Option(
    '-e, --env <name>',
    "environment of the config file (default: PARTNER_APIS_ENV, else the config's defaultEnvironment)",
  ).choices(ENVIRONMENTS);
}

/**
 * The help text of examples shown after a command's options.
 *
 * @example
 * command.addHelpText('after', examples(['partner-apis approvals list --employee 100234']));
 */
export function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}`;
}
