import type { Sandbox, SandboxUrls } from '@partner-apis/sandbox';
import type { CliIo } from './cli-io.js';
import { sandboxVariables } from './config/sandbox-variables.js';
import { createClientLogger, type WireLogger } from './debug-log.js';
import { backgroundSandboxFile, findBackgroundSandbox } from './sandbox/background-sandbox.js';
import { UsageError } from './usage-error.js';
import { secretValues, type Settings, type Variables } from './config/settings.js';

/**
 * The settings of one command run, and the embedded sandbox when nothing is configured. The
 * sandbox starts on first use, so commands that send nothing never start it.
 */
export interface ServiceSession {
  readonly settings: Settings;
  /** The process's environment, for what the settings do not cover (`HTTPS_PROXY`). */
  readonly env: NodeJS.ProcessEnv;
  /** The `PARTNER_APIS_*` variables the clients are created from. */
  variables(): Promise<Variables>;
  /** The embedded sandbox, once started. */
  readonly sandbox: Sandbox | undefined;
  /**
   * The URLs of the sandbox the command uses, embedded or started by `partner-apis sandbox
   * start`, once `variables()` has found or started it; undefined for a configured environment.
   */
  readonly sandboxUrls: SandboxUrls | undefined;
  /** Credential values in use, so that no message shows one. */
  secrets(): readonly string[];
  /**
   * The logger of a client: its warnings as the CLI's own (`title` names the client; `advice`
   * gives what a person at the shell does about a warning of a code), and the wire log with
   * `--debug`.
   */
  logger(title: string, advice?: (code: unknown) => string | undefined): WireLogger;
  /** Writes a note to stderr (none with `--quiet`). */
  note(text: string): void;
  close(): Promise<void>;
}

/**
 * A client's warning in the words of the command line: the library's advice (`Set assumptions:
 * "off"`, an option of the library a person at the shell does not have) becomes the flag
 * that does it here.
 */
export function inCliWords(message: string): string {
  return message.replace(
    /Set assumptions: "off" to silence this warning\./,
    '--quiet silences warnings.',
  );
}

/**
 * Opens the session of one command run.
 */
export function openSession(
  settings: Settings,
  io: CliIo,
  {
    debug = false,
    backgroundSandbox = true,
    note = (text) => io.stderr.write(`${text}\n`),
  }: {
    debug?: boolean;
    /** Use the sandbox of `partner-apis sandbox start` when one runs (the demo never does). */
    backgroundSandbox?: boolean;
    /** Where notes go (none with `--quiet`): which sandbox a command uses, and warnings. */
    note?: (text: string) => void;
  } = {},
): ServiceSession {
  let sandbox: Sandbox | undefined;
  let sandboxUrls: SandboxUrls | undefined;
  let variables: Variables = settings.variables;
  let starting: Promise<Variables> | undefined;
  const start = async (): Promise<Variables> => {
    const running = backgroundSandbox
      ? await findBackgroundSandbox(backgroundSandboxFile(io.env))
      : undefined;
    if (running !== undefined) {
      note(
        `No credentials configured: using the sandbox at ${running.urls.origin} that \`partner-apis sandbox start\` started ` +
          `(its sellers and quotes stay until \`partner-apis sandbox stop\`).`,
      );
      sandboxUrls = running.urls;
      variables = { ...sandboxVariables(running), ...settings.variables };
      return variables;
    }
    // Loaded only when needed: a configured environment never pays for the sandbox.
    const { startSandbox, SandboxConfigError } = await import('@partner-apis/sandbox');
    const { size, seed } = settings.sandbox;
    try {
      sandbox = await startSandbox({
        ...(seed === undefined ? {} : { seed }),
        ...(size === undefined
          ? {}
          : { sizes: { exposureLocations: size, riskLocations: size, gradings: size } }),
      });
    } catch (error) {
      if (error instanceof SandboxConfigError) {
        throw new UsageError(
          `the embedded sandbox refused PARTNER_APIS_SANDBOX_SIZE / _SEED (or the config's sandbox settings): ${error.message}`,
        );
      }
      throw error;
    }
    note(
      `No credentials configured: using the embedded sandbox at http://127.0.0.1:${sandbox.port} ` +
        `(local sample data; see partner-apis --help to configure an environment).`,
    );
    sandboxUrls = sandbox.urls;
    variables = { ...sandboxVariables(sandbox), ...settings.variables };
    return variables;
  };
  const secrets = () => secretValues(variables);
  return {
    settings,
    env: io.env,
    get sandbox() {
      return sandbox;
    },
    get sandboxUrls() {
      return sandboxUrls;
    },
    variables() {
      if (!settings.embeddedSandbox) return Promise.resolve(settings.variables);
      starting ??= start();
      return starting;
    },
    secrets,
    logger: (title, advice) =>
      createClientLogger({
        write: (text) => io.stderr.write(text),
        secrets,
        debug,
        warn: (message, code) => {
          const then = advice?.(code);
          note(`warning: ${title}: ${inCliWords(message)}${then === undefined ? '' : ` ${then}`}`);
        },
      }),
    note,
    async close() {
      await sandbox?.close();
    },
  };
}
