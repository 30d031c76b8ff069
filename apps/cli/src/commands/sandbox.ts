import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Option, type Command } from 'commander';
import { terminalWidth, type CommandContext } from '../command-context.js';
import { examples, fitLines } from '../help-format.js';
import { ExitCode } from '../exit-codes.js';
import {
  backgroundSandboxFile,
  findBackgroundSandbox,
  forgetBackgroundSandbox,
  writeBackgroundSandbox,
  type BackgroundSandbox,
} from '../sandbox/background-sandbox.js';
import { UsageError } from '../usage-error.js';
import { collect, integerOption } from './option-parsers.js';

/** How long a start may take before it is given up; the sandbox itself starts in well under a second. */
const START_TIMEOUT_MS = 60_000;

/** How often and how many times `stop` looks whether the sandbox has gone. */
const STOP_POLL_MS = 100;
const STOP_POLLS = 100;

interface StartOptions {
  port: number;
  foreground?: boolean;
  /** Files of further liability majors to serve. */
  liabilitySpec: string[];
}

/**
 * The settings of a sandbox as a profile of the user's config file (and an environment of
 * `partner-apis.config.json`): the URLs and the credentials as the sandbox prints them.
 */
function asProfile(state: BackgroundSandbox): Record<string, unknown> {
  const { urls, credentials } = state;
  // With further majors (`--liability-spec`), the base URL of each, as `--major` finds them.
  const majors = Object.keys(urls.liabilityMajors).length > 1;
  return {
    tokenUrl: urls.tokenUrl,
    exposure: { baseUrl: urls.exposure, ...credentials.exposure },
    riskEngineering: { baseUrl: urls.riskEngineering, ...credentials.riskEngineering },
    liability: {
      baseUrl: urls.liability,
      ...(majors ? { baseUrls: urls.liabilityMajors } : {}),
      ...credentials.liability,
    },
    approvals: { baseUrl: urls.approvals, ...credentials.approvals },
  };
}

function describeRunning(state: BackgroundSandbox): string {
  return `sandbox running at ${state.urls.origin} (pid ${state.pid}, since ${state.startedAt})`;
}

/** A line of the command's result on stdout, broken at spaces to fit the terminal. */
function say(context: CommandContext, text: string): void {
  context.io.stdout.write(`${fitLines(text, terminalWidth(context.io))}\n`);
}

function stateFile(context: CommandContext): string {
  const file = backgroundSandboxFile(context.io.env);
  if (file === undefined) {
    throw new UsageError(
      'neither XDG_STATE_HOME nor HOME is set: there is nowhere to record the sandbox',
    );
  }
  return file;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts this CLI again as `sandbox start --foreground`, detached, and waits until it listens. */
async function startInBackground(context: CommandContext, options: StartOptions, args: string[]) {
  const bin = fileURLToPath(new URL('../bin.js', import.meta.url));
  // The files as given: the child runs in the same directory, and its messages name them so.
  const specs = options.liabilitySpec.flatMap((file) => ['--liability-spec', file]);
  const child = spawn(
    process.execPath,
    [bin, ...args, 'sandbox', 'start', '--foreground', '--port', String(options.port), ...specs],
    {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: context.io.env,
      cwd: context.io.cwd,
    },
  );
  let errors = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (errors += text));
  const ready = new Promise<BackgroundSandbox>((resolve, reject) => {
    child.once('message', (message) => resolve(message as BackgroundSandbox));
    child.once('exit', (code) =>
      reject(
        new UsageError(
          errors.trim().replace(/^error: /, '') || `the sandbox exited with code ${code}`,
        ),
      ),
    );
    setTimeout(
      () => reject(new Error(`the sandbox did not start within ${START_TIMEOUT_MS / 1000} s`)),
      START_TIMEOUT_MS,
    ).unref();
  });
  try {
    return await ready;
  } finally {
    // From now on the sandbox lives on its own.
    child.stderr?.destroy();
    if (child.connected) child.disconnect();
    child.unref();
  }
}

/** The global options to pass on to the background process, so it reads the same config. */
function globalArgs(command: Command): string[] {
  const globals = command.optsWithGlobals<{ config?: string }>();
  return globals.config === undefined ? [] : ['--config', globals.config];
}

/**
 * `partner-apis sandbox start|stop|status`: a sandbox in the background that keeps its sellers
 * and quotes across commands, used by every command that has no credentials configured.
 */
export function registerSandboxCommands(program: Command, context: CommandContext): void {
  const sandbox = program
    .command('sandbox')
    .description(
      'a sandbox in the background that keeps its data across commands (sellers, quotes); commands with no credentials configured use it',
    )
    .addHelpText(
      'after',
      examples([
        'partner-apis sandbox start',
        'partner-apis sandbox status',
        'partner-apis sandbox stop',
      ]),
    );

  sandbox
    .command('start')
    .description(
      'start the sandbox in the background; until `sandbox stop`, commands with no credentials configured use it instead of a sandbox of their own',
    )
    .addOption(
      new Option('--port <n>', 'port on 127.0.0.1')
        .argParser(integerOption(0, 65_535))
        .default(0, 'a free one'),
    )
    .option('--foreground', 'run in this terminal until Ctrl+C instead')
    .option(
      '--liability-spec <file>',
      'also serve this major of the liability API, from its bundled OpenAPI document (YAML or JSON; the major is its info.version); repeat for several',
      collect,
      [],
    )
    .addHelpText(
      'after',
      examples(
        [
          'partner-apis sandbox start',
          'partner-apis sandbox start --port 4010 --foreground',
          'PARTNER_APIS_SANDBOX_SIZE=200 partner-apis sandbox start',
          'partner-apis sandbox start --liability-spec liability-v1.yaml',
        ],
        [
          'PARTNER_APIS_SANDBOX_SIZE and _SEED (or sandbox.size / .seed of a config file) shape its data. It prints its settings in the shape of a profile of ~/.config/partner-apis/config.json. With --liability-spec, liability commands call each major it serves with --major N.',
        ],
      ),
    )
    .action(async (options: StartOptions, command: Command) => {
      await context.run(command, async (session) => {
        const file = stateFile(context);
        const running = await findBackgroundSandbox(file);
        if (running !== undefined) {
          context.note(`A ${describeRunning(running)} already; stop it first to start another.`);
          context.io.stdout.write(`${JSON.stringify(asProfile(running), null, 2)}\n`);
          return;
        }
        if (options.foreground !== true) {
          const state = await startInBackground(context, options, globalArgs(command));
          context.note(
            `Started a ${describeRunning(state)}. Commands with no credentials configured use it until \`partner-apis sandbox stop\`. Its settings, as a profile:`,
          );
          context.io.stdout.write(`${JSON.stringify(asProfile(state), null, 2)}\n`);
          return;
        }
        const { startSandboxWithLiabilitySpecs, SandboxConfigError, LIABILITY_SPEC_OPTION } =
          await import('@partner-apis/sandbox');
        const { size, seed } = session.settings.sandbox;
        const started = await startSandboxWithLiabilitySpecs(
          {
            port: options.port,
            ...(seed === undefined ? {} : { seed }),
            ...(size === undefined
              ? {}
              : { sizes: { exposureLocations: size, riskLocations: size, gradings: size } }),
          },
          options.liabilitySpec,
          context.io.cwd,
        ).catch((error: unknown) => {
          if (!(error instanceof SandboxConfigError)) throw error;
          // A file's problem names the file; any other is about the size or seed settings.
          if (error.option === LIABILITY_SPEC_OPTION) throw new UsageError(error.message);
          throw new UsageError(
            `the sandbox refused PARTNER_APIS_SANDBOX_SIZE / _SEED (or the config's sandbox settings): ${error.message}`,
          );
        });
        const state: BackgroundSandbox = {
          pid: process.pid,
          startedAt: new Date().toISOString(),
          urls: started.urls,
          credentials: started.credentials,
        };
        await writeBackgroundSandbox(file, state);
        // Whatever ends the process (Ctrl+C, `sandbox stop`), the record goes with it.
        process.on('exit', () => forgetBackgroundSandbox(file, process.pid));
        if (process.send !== undefined) {
          process.send(state);
        } else {
          context.note(
            `Started a ${describeRunning(state)}; Ctrl+C stops it. Its settings, as a profile:`,
          );
          context.io.stdout.write(`${JSON.stringify(asProfile(state), null, 2)}\n`);
        }
        await new Promise(() => {
          // Serves until a signal ends the process.
        });
      });
    });

  sandbox
    .command('status')
    .description('whether the background sandbox runs, and where (exit code 1 when it does not)')
    .addHelpText('after', examples(['partner-apis sandbox status']))
    .action(async (_options: unknown, command: Command) => {
      await context.run(command, async () => {
        const running = await findBackgroundSandbox(stateFile(context));
        if (running === undefined) {
          say(
            context,
            'No sandbox is running in the background; start one with `partner-apis sandbox start`.',
          );
          context.exitCode = ExitCode.failure;
          return;
        }
        say(context, describeRunning(running));
      });
    });

  sandbox
    .command('stop')
    .description('stop the background sandbox; its sellers and quotes are gone')
    .addHelpText('after', examples(['partner-apis sandbox stop']))
    .action(async (_options: unknown, command: Command) => {
      await context.run(command, async () => {
        const file = stateFile(context);
        const running = await findBackgroundSandbox(file);
        if (running === undefined) {
          context.note('No sandbox is running in the background.');
          return;
        }
        process.kill(running.pid, 'SIGTERM');
        for (let poll = 0; poll < STOP_POLLS && alive(running.pid); poll += 1) {
          await new Promise((resolve) => setTimeout(resolve, STOP_POLL_MS));
        }
        if (alive(running.pid)) {
          context.note(
            `error: the sandbox (pid ${running.pid}) did not stop; end it with kill ${running.pid}`,
          );
          context.exitCode = ExitCode.failure;
          return;
        }
        forgetBackgroundSandbox(file, running.pid);
        say(context, `Stopped the sandbox at ${running.urls.origin} (pid ${running.pid}).`);
      });
    });
}
