import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import type { CliIo } from './cli-io.js';
import {
  createCommandContext,
  environmentOption,
  terminalWidth,
  type CliDependencies,
  type CommandContext,
} from './command-context.js';
import {
  COMPLETE_COMMAND,
  completeWords,
  defaultSubcommand,
  registerCompletionCommand,
} from './commands/completion.js';
import { readServiceList } from './service-registry.js';
import { ExitCode } from './exit-codes.js';
import { UsageError } from './usage-error.js';
import { versionLine } from './version.js';
import {
  DEFAULT_HELP_WIDTH,
  configureHelp,
  examples,
  fitLines,
  helpSection,
  inColour,
} from './help-format.js';

const CONFIGURATION_HELP = [
  'With no credentials configured, every command starts an embedded sandbox on 127.0.0.1 and says so on stderr.',
  'To use a real environment, set PARTNER_APIS_<SERVICE>_* variables (SERVICE: EXPOSURE, RISKENGINEERING, LIABILITY, APPROVALS; e.g. _BASE_URL, _CLIENT_ID, _CLIENT_SECRET), or write partner-apis.config.json (in this folder or one above it) with environments production, uat, mock (the mocking service of each upstream) and sandbox and pick one with --env or PARTNER_APIS_ENV, or keep named profiles in ~/.config/partner-apis/config.json and pick one with --profile. Variables win over files; `partner-apis config list` shows what is in effect.',
  'HTTPS_PROXY, HTTP_PROXY and NO_PROXY are honoured.',
];

const EXIT_CODES_HELP = ['0 ok, 1 API error or invalid data, 2 usage or configuration error.'];

/** Adds a command (or a group) to the program. */
type Register = (program: Command, context: CommandContext) => void | Promise<void>;

/**
 * The commands of `partner-apis` after those of the services, in the order of its help. Each
 * is loaded only when a command line names it (`--help` lists their names alone), so a command
 * loads what it uses and no more, as gh does.
 */
const COMMANDS: readonly { name: string; description: string; load(): Promise<Register> }[] = [
  {
    name: 'credentials',
    description: 'check the credentials of the configured clients',
    load: async () => (await import('./commands/credentials.js')).registerCredentialsCommands,
  },
  {
    name: 'config',
    description: 'the configuration in effect',
    load: async () => (await import('./commands/config.js')).registerConfigCommands,
  },
  {
    name: 'demo',
    description:
      'a guided run through all four services against the embedded sandbox (always the sandbox: nothing is sent to a configured environment)',
    load: async () => (await import('./commands/demo.js')).registerDemoCommand,
  },
  {
    name: 'sandbox',
    description:
      'a sandbox in the background that keeps its data across commands (sellers, quotes); commands with no credentials configured use it',
    load: async () => (await import('./commands/sandbox.js')).registerSandboxCommands,
  },
  {
    name: 'verify',
    description:
      "check the specs' guesses (x-upstream-gap) against the configured environment, and write the spec edits that make them true",
    load: async () => (await import('./commands/verify.js')).registerVerifyCommand,
  },
  {
    name: 'mcp',
    description: 'serve the operations of the services as MCP tools, over stdio or HTTP',
    load: async () => (await import('./mcp/command.js')).registerMcpCommand,
  },
  {
    name: 'completion',
    description: 'print the tab-completion script of a shell',
    load: async () => registerCompletionCommand,
  },
  {
    name: 'version',
    description: 'print the version (as --version does)',
    load: async () => registerVersionCommand,
  },
];

/**
 * Adds every command: in full those `only` names (every one without it), the others as a name
 * and a line of help. The services come first, from `services.json`.
 */
async function registerCommands(
  program: Command,
  context: CommandContext,
  only?: string,
): Promise<void> {
  const services = readServiceList(context.servicesFile);
  const all = [
    ...services.map((entry) => ({
      ...entry,
      load: async (): Promise<Register> => {
        const { operationService, registerServiceCommands } =
          await import('./commands/operations.js');
        const service = await operationService(context, entry);
        return (root) => registerServiceCommands(root, context, service);
      },
    })),
    ...COMMANDS,
  ];
  for (const { name, description, load } of all) {
    if (only === undefined || only === name) await (await load())(program, context);
    else program.command(name).description(description);
  }
}

/** `partner-apis version`, as gh and az have it beside `--version`. */
function registerVersionCommand(program: Command, context: CommandContext): void {
  program
    .command('version')
    .description('print the version (as --version does)')
    .addHelpText('after', examples(['partner-apis version']))
    .action(() => {
      context.io.stdout.write(`${versionLine()}\n`);
    });
}

/** Global options that take a value, so the word after them is no command. */
const GLOBAL_VALUE_OPTIONS = ['-e', '--env', '-p', '--profile', '-c', '--config'];

/**
 * Commands and options by their former names, each with its current one: the former still works,
 * with a one-line notice, and is in no help nor completion.
 */
const RENAMED: readonly {
  readonly from: readonly string[];
  readonly to: readonly string[];
  readonly options?: Readonly<Record<string, string>>;
}[] = [
  { from: ['liability', 'seller'], to: ['liability', 'sellers'] },
  { from: ['liability', 'quote'], to: ['liability', 'quotes'] },
  { from: ['exposure', 'sov'], to: ['exposure', 'statement-of-values'] },
  {
    from: ['approvals', 'list'],
    to: ['approvals', 'approvals', 'list'],
    options: { '--employee': '--employee-number' },
  },
];

/** Where the command's name is: past the global options and a `help`. */
function commandIndex(args: readonly string[]): number {
  let at = 0;
  // Bounded by the arguments: each turn moves past one or two.
  while (at < args.length && args[at]!.startsWith('-')) {
    at += GLOBAL_VALUE_OPTIONS.includes(args[at]!) ? 2 : 1;
  }
  return args[at] === 'help' ? at + 1 : at;
}

/**
 * The command line with a former command name (and its former options) replaced by the
 * current one, and the notice that says so; the command line as it is when it names none.
 */
export function withCurrentNames(args: readonly string[]): {
  args: readonly string[];
  notice?: string;
} {
  const at = commandIndex(args);
  const rename = RENAMED.find(({ from }) => from.every((word, index) => args[at + index] === word));
  if (rename === undefined) return { args };
  const rest = args.slice(at + rename.from.length);
  const names = [
    `\`partner-apis ${rename.from.join(' ')}\` is now \`partner-apis ${rename.to.join(' ')}\``,
  ];
  const options = rest.map((arg) => {
    const [flag, ...value] = arg.split('=');
    const current = rename.options?.[flag!];
    if (current === undefined) return arg;
    names.push(`${flag} is now ${current}`);
    return [current, ...value].join('=');
  });
  return {
    args: [...args.slice(0, at), ...rename.to, ...options],
    notice: `note: ${[...new Set(names)].join(', ')}.`,
  };
}

/**
 * Builds the `partner-apis` program for one run.
 */
export async function createProgram(io: CliIo, dependencies: CliDependencies = {}, only?: string) {
  const context = createCommandContext(io, dependencies);
  const width = terminalWidth(io) ?? DEFAULT_HELP_WIDTH;
  const program = new Command('partner-apis')
    .description(
      'Exposure, risk engineering, liability and approvals APIs of the partner platform from the command line.',
    )
    // Inherited by every subcommand created after it: set before any is.
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(inColour(text, io.stderr, io.env)),
      getOutHelpWidth: () => width,
      getErrHelpWidth: () => width,
    })
    .addOption(environmentOption())
    .addOption(
      new Option('-p, --profile <name>', 'profile of your own config file').default(
        undefined,
        'PARTNER_APIS_PROFILE, else its defaultProfile',
      ),
    )
    .addOption(
      new Option('-c, --config <file>', 'config file').default(
        undefined,
        'PARTNER_APIS_CONFIG, else partner-apis.config.json here or in a folder above',
      ),
    )
    .option(
      '--debug',
      'log every request and response to stderr (credentials redacted), and where an internal error happened',
    )
    .option('-q, --quiet', 'print only data and errors: no notes, warnings nor progress')
    .version(versionLine(), '-V, --version', 'print the version')
    .exitOverride()
    .showHelpAfterError('(add --help for usage and examples)')
    .addHelpText(
      'after',
      examples([
        'partner-apis demo',
        'partner-apis exposure locations -o ndjson > locations.ndjson',
        'partner-apis liability sellers create --name "Nordlicht Home GmbH" --country DE',
        'partner-apis approvals approvals list --employee-number 100234 --columns kind,approvalId,approvalStatus',
        'partner-apis config list',
      ]),
    )
    .addHelpText('after', helpSection('Configuration:', CONFIGURATION_HELP))
    .addHelpText('after', helpSection('Exit codes:', EXIT_CODES_HELP));
  configureHelp(program, width);
  await registerCommands(program, context, only);
  return { program, context };
}

/** The profiles of the user's config file, for completion; none when it cannot be read. */
async function profileNames(env: NodeJS.ProcessEnv): Promise<string[]> {
  const { userConfigPath } = await import('./config/config-file.js');
  const path = userConfigPath(env);
  try {
    const config = JSON.parse(readFileSync(path ?? '', 'utf8')) as { profiles?: object };
    return Object.keys(config.profiles ?? {});
  } catch {
    return [];
  }
}

/** The command that `words` (the command line before its options) name, as far as they do. */
function commandAt(program: Command, words: readonly string[]): Command {
  let command = program;
  for (const word of words) {
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub === undefined) break;
    command = sub;
  }
  return command;
}

/** The words of a command line before its first option. */
function leadingWords(args: readonly string[]): string[] {
  const end = args.findIndex((arg) => arg.startsWith('-'));
  return [...(end === -1 ? args : args.slice(0, end))];
}

/**
 * Runs `partner-apis` with the arguments after the program name and returns the exit code:
 * 0 ok, 1 API error or invalid data, 2 usage or configuration error.
 */
export async function runCli(
  given: readonly string[],
  io: CliIo,
  dependencies: CliDependencies = {},
): Promise<number> {
  const { args, notice } =
    given[0] === COMPLETE_COMMAND ? { args: given } : withCurrentNames(given);
  // Completion needs every command; any other command line loads the one it names.
  const { program, context } = await createProgram(
    io,
    dependencies,
    args[0] === COMPLETE_COMMAND ? undefined : (args[commandIndex(args)] ?? ''),
  );
  const words = leadingWords(args);
  const named = words[0] === 'help' ? words.slice(1) : words;
  if (notice !== undefined && !args.includes('-q') && !args.includes('--quiet')) {
    io.stderr.write(`${fitLines(notice, terminalWidth(io, io.stderr))}\n`);
  }
  if (args[0] === COMPLETE_COMMAND) {
    const profiles = await profileNames(io.env);
    const candidates = completeWords(program, args.slice(1), (option) =>
      option.long === '--profile' ? profiles : [],
    );
    io.stdout.write(candidates.map((candidate) => `${candidate}\n`).join(''));
    return ExitCode.ok;
  }
  // Help that was asked for goes to stdout with exit code 0, as gh does: no arguments,
  // `help COMMAND…`, or a group of commands named without one of them.
  const helpCommand = words[0] === 'help';
  const target = commandAt(program, named);
  const whole = words.length === args.length && commandDepth(target) === named.length;
  const group = target.commands.length > 0 && defaultSubcommand(target) === undefined;
  if (args.length === 0 || (whole && (helpCommand || group))) {
    target.outputHelp();
    return ExitCode.ok;
  }
  if (helpCommand && commandDepth(target) < named.length) {
    const unknown = named[commandDepth(target)]!;
    const write = (text: string) => io.stderr.write(inColour(text, io.stderr, io.env));
    const { reportError } = await import('./error-report.js');
    return reportError(new UsageError(`unknown command '${unknown}' (see partner-apis --help)`), {
      write,
      secrets: [],
    });
  }
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    // Commander has already printed its message (or the help) to stderr.
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    // Outside a command's own error report: still a message and an exit code, never a stack.
    const { reportError } = await import('./error-report.js');
    return reportError(error, {
      write: (text) => io.stderr.write(inColour(text, io.stderr, io.env)),
      secrets: [],
    });
  }
  return context.exitCode;
}

/** How many commands deep `command` is: 0 for the program, 2 for `exposure locations`. */
function commandDepth(command: Command): number {
  let depth = 0;
  for (let at = command.parent; at !== null; at = at.parent) depth += 1;
  return depth;
}
