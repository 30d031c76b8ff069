import { fstatSync } from 'node:fs';
import { Option, type Command } from 'commander';
import type { CliIo } from './cli-io.js';
import { ENVIRONMENTS } from './config/services.js';
import { ExitCode } from './exit-codes.js';
import { LIABILITY_MAJORS, type LiabilityMajors } from './liability-majors.js';
import {
  OUTPUT_FORMATS,
  openOutput,
  type OutputFormat,
  type OutputSink,
} from './output/output-sink.js';
import { clearProgress, createProgress, type Progress } from './output/progress.js';
import type { WriteOptions } from './output/record-writer.js';
import { visibleText } from './output/safe-text.js';
import { UsageError } from './usage-error.js';
import { fitLines, inColour } from './help-format.js';
import type { ServiceSession } from './service-session.js';
import { SERVICES_FILE, useServiceList } from './service-registry.js';

/** The options every data command has. */
export interface OutputOptions {
  /** `-o/--output` (or its older name `--format`). */
  format: OutputFormat;
  /** `--out`: the file the data goes to. */
  out?: string;
  /** `--columns`, for table and csv. */
  columns?: string[];
  /** `-o` (or `--format`) was given: a table then stays a table in a pipe. */
  formatGiven?: boolean;
  /** `--query`: a JMESPath expression selecting what is written. */
  query?: string;
}

/** The options of the program itself, valid before or after the subcommand. */
export interface GlobalOptions {
  env?: string;
  profile?: string;
  config?: string;
  debug?: boolean;
  quiet?: boolean;
}

/** What a CLI run may be given instead of its defaults; tests add a fixture major this way. */
export interface CliDependencies {
  /** The majors of the liability API the CLI can call (default `LIABILITY_MAJORS`). */
  readonly liabilityMajors?: LiabilityMajors;
  /** The list of services (default: `services.json` of this package). */
  readonly servicesFile?: string;
}

/** An operation of a spec, and how the command line names it and its arguments. */
export interface CommandOperation {
  readonly method: string;
  /** A path template, e.g. `/quotes/{quoteId}`. */
  readonly path: string;
  /** As the client names it in errors: `quotes.search`. */
  readonly name: string;
  /** `partner-apis liability quotes search`. */
  readonly command: string;
  /** Argument name → how the command line gives it: `createdFrom` → `--created-from`. */
  readonly flags: Readonly<Record<string, string>>;
}

/** What the actions of the commands share: the process around them and the exit code. */
export interface CommandContext {
  readonly io: CliIo;
  /** The majors of the liability API `--major` chooses from. */
  readonly liabilityMajors: LiabilityMajors;
  /** The list of services the commands and MCP tools come from. */
  readonly servicesFile: string;
  exitCode: ExitCode;
  /** `--quiet`: no notes, warnings nor progress; data and errors only. */
  quiet: boolean;
  /**
   * Records the command that calls an operation, so that a server's message naming the
   * operation (`POST /parties/sellers`) and a refused argument (`createdFrom`) are told in the
   * command line's words.
   */
  operation(operation: CommandOperation): void;
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
  /**
   * Writes a note or warning to stderr (none with `--quiet`), erasing a progress line first;
   * control characters in it are shown as escapes.
   */
  note(text: string): void;
  /** How the data of a command is written: its columns, the table's width, where warnings go. */
  writeOptions(options: OutputOptions): WriteOptions;
}

/**
 * The width a table on stdout must fit: `COLUMNS` when set (as `ls` and `git` honour it), else
 * the terminal's width; none for a pipe.
 */
export function terminalWidth(
  io: CliIo,
  stream: {
    readonly isTTY?: boolean | undefined;
    readonly columns?: number | undefined;
  } = io.stdout,
): number | undefined {
  const fromVariable = Number(io.env.COLUMNS);
  if (Number.isInteger(fromVariable) && fromVariable > 0) return fromVariable;
  return stream.isTTY === true && (stream.columns ?? 0) > 0 ? stream.columns : undefined;
}

/** A pipe or socket: another program reads the data, and may write to the terminal. */
function isPipe(stream: object): boolean {
  const { fd } = stream as { fd?: unknown };
  if (typeof fd !== 'number') return false;
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

/**
 * Creates the context of one CLI run.
 */
export function createCommandContext(
  io: CliIo,
  { liabilityMajors = LIABILITY_MAJORS, servicesFile = SERVICES_FILE }: CliDependencies = {},
): CommandContext {
  useServiceList(servicesFile);
  const sinks: OutputSink[] = [];
  const operations: (CommandOperation & { pattern: RegExp })[] = [];
  const commandOf = (method: string, path: string) =>
    operations.find((operation) => operation.method === method && operation.pattern.test(path))
      ?.command;
  const flagOf = (name: string | undefined, argument: string) =>
    operations.find((operation) => operation.name === name)?.flags[
      argument.slice(argument.lastIndexOf('.') + 1)
    ];
  const context: CommandContext = {
    io,
    liabilityMajors,
    servicesFile,
    exitCode: ExitCode.ok,
    quiet: false,
    operation(operation) {
      const pattern = operation.path
        .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
        .replace(/\{[^}]+\}/g, '[^/]+');
      operations.push({ ...operation, pattern: new RegExp(`^${pattern}$`) });
    },
    async run(command, action) {
      let session: ServiceSession | undefined;
      const globals = command.optsWithGlobals<GlobalOptions>();
      context.quiet = globals.quiet === true;
      try {
        const { resolveSettings } = await import('./config/settings.js');
        const { openSession } = await import('./service-session.js');
        const settings = await resolveSettings({
          env: io.env,
          cwd: io.cwd,
          configFile: globals.config,
          environment: globals.env,
          profile: globals.profile,
        });
        session = openSession(settings, io, { debug: globals.debug === true, note: context.note });
        await action(session);
      } catch (error) {
        clearProgress();
        const { reportError } = await import('./error-report.js');
        const { ApiError } = await import('@partner-apis/errors');
        context.exitCode = reportError(error, {
          write: (text) =>
            io.stderr.write(
              inColour(fitLines(text, terminalWidth(io, io.stderr)), io.stderr, io.env),
            ),
          secrets: session?.secrets() ?? [],
          debug: globals.debug,
          commandOf,
          flagOf,
        });
        // Only liability keeps what a command creates: sellers and quotes.
        const liability = command.parent?.parent?.name() === 'liability';
        if (liability && session?.sandbox !== undefined && error instanceof ApiError) {
          context.note(
            'note: the embedded sandbox starts empty for each command; `partner-apis sandbox start` keeps sellers and quotes across commands.',
          );
        }
      } finally {
        // A sink still open here belongs to a failed action: its partial file goes.
        await Promise.all(sinks.splice(0).map((sink) => sink.abort()));
        await session?.close();
      }
    },
    async output(options) {
      const opened = await openOutput(options.out, io.stdout, io.cwd);
      if (options.out !== undefined && options.format === 'table' && options.formatGiven !== true) {
        context.note(
          `note: ${options.out} has tab-separated columns; -o json, ndjson or csv (or a name ending .json, .ndjson, .csv) writes another format.`,
        );
      }
      // Data on the terminal that shows the progress line: the line goes before the data comes.
      const sink: OutputSink =
        options.out === undefined && io.stdout.isTTY === true
          ? {
              ...opened,
              write: (text) => {
                clearProgress();
                return opened.write(text);
              },
            }
          : opened;
      sinks.push(sink);
      return sink;
    },
    progress(label, options) {
      // The program reading a pipe may write to this terminal at any moment, over the line.
      const dataToPipe = options.out === undefined && isPipe(io.stdout);
      return createProgress(io.stderr, label, !dataToPipe && !context.quiet);
    },
    note(text) {
      if (context.quiet) return;
      clearProgress();
      // Broken at spaces, as a terminal would break it in the middle of a word.
      io.stderr.write(`${fitLines(visibleText(text, '\n'), terminalWidth(io, io.stderr))}\n`);
    },
    writeOptions(options) {
      const toTerminal = options.out === undefined && io.stdout.isTTY === true;
      return {
        warn: context.note,
        columns: options.columns,
        maxWidth: options.out === undefined ? terminalWidth(io) : undefined,
        plain: !toTerminal && options.formatGiven !== true,
        query: options.query,
      };
    },
  };
  return context;
}

/** The format a file's extension names, for `--out` without `-o`. */
const FORMAT_OF_EXTENSION: Readonly<Record<string, OutputFormat>> = {
  json: 'json',
  ndjson: 'ndjson',
  jsonl: 'ndjson',
  csv: 'csv',
};

/**
 * Adds `-o/--output` (the format, as in aws and az), `--out` (the file), `--query` (JMESPath)
 * and `--columns` to a command that prints data. `--format`, the older name of `--output`,
 * still works. A table (the default) on stdout that is not a terminal is plain tab-separated
 * columns, as gh writes one; `-o table` keeps it a table.
 */
export function withOutputOptions(command: Command): Command {
  return command
    .addOption(
      new Option('-o, --output <format>', 'output format').choices(OUTPUT_FORMATS).default('table'),
    )
    .addOption(new Option('-f, --format <format>').choices(OUTPUT_FORMATS).hideHelp())
    .hook('preAction', async (_, action) => {
      const { output, format } = action.opts<{ output: OutputFormat; format?: OutputFormat }>();
      const outputGiven = action.getOptionValueSource('output') === 'cli';
      if (format !== undefined && outputGiven && format !== output) {
        throw new UsageError(
          `--format ${format} and --output ${output} disagree: give one of them`,
        );
      }
      // `--out x.json` with no -o writes JSON: the file's name says the format.
      const { out } = action.opts<{ out?: string }>();
      const named = FORMAT_OF_EXTENSION[/\.([a-z]+)$/i.exec(out ?? '')?.[1]?.toLowerCase() ?? ''];
      const given = outputGiven || format !== undefined;
      action.setOptionValue('format', format ?? (outputGiven ? output : (named ?? output)));
      action.setOptionValue('formatGiven', given || named !== undefined);
      const { query } = action.opts<{ query?: string }>();
      if (query !== undefined) {
        const { compile } = await import('@jmespath-community/jmespath');
        try {
          compile(query);
        } catch (error) {
          throw new UsageError(`--query is not a JMESPath expression: ${(error as Error).message}`);
        }
      }
    })
    .option('--out <file>', 'write the data to this file instead of stdout')
    .option(
      '--query <expression>',
      'a JMESPath expression (as in the aws CLI) choosing what is written, e.g. "[].locationId"',
    )
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
 */
export function environmentOption(): Option {
  return new Option('-e, --env <name>', 'environment of the config file')
    .choices(ENVIRONMENTS)
    .default(undefined, "PARTNER_APIS_ENV, else the config's defaultEnvironment");
}
