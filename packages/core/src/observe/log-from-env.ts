import type { Logger } from './observer.js';

/** Environment variables, as `process.env` holds them. */
export type Env = Readonly<Record<string, string | undefined>>;

/** The variable that turns the wire log on for clients given no `logger`. */
export const LOG_ENV = 'PARTNER_APIS_LOG';

/** The levels, from the most to the least said; `PARTNER_APIS_LOG` takes the first three. */
const LEVELS: readonly (keyof Logger)[] = ['debug', 'info', 'warn', 'error'];

/** Where `loggerFromEnv` reads and writes; every part has a default for the running process. */
export interface LogFromEnvSources {
  /** The environment; `process.env` by default, none where there is no `process`. */
  env?: Env | undefined;
  /** Writes one line; standard error by default (`console.error` without `process`). */
  write?: ((line: string) => void) | undefined;
  /** Tells about a value that is not a level; a process warning by default. */
  warn?: ((message: string) => void) | undefined;
}

/** The bad values already warned about: one warning each per process, however many clients. */
const warnedAbout = new Set<string>();

function processEnv(): Env | undefined {
  try {
    return (globalThis as { process?: { env?: Env } }).process?.env;
  } catch {
    // Deno without --allow-env throws on reading the environment: no variable is set then.
    return undefined;
  }
}

function readLevel(env: Env): string | undefined {
  try {
    return env[LOG_ENV]?.trim().toLowerCase();
  } catch {
    return undefined;
  }
}

function standardError(line: string): void {
  const stderr = (globalThis as { process?: { stderr?: { write?: (text: string) => unknown } } })
    .process?.stderr;
  if (typeof stderr?.write === 'function') stderr.write(`${line}\n`);
  else console.error(line);
}

function processWarning(message: string): void {
  const emit = (globalThis as { process?: { emitWarning?: (text: string) => void } }).process
    ?.emitWarning;
  if (typeof emit === 'function') emit(message);
  else console.warn(message);
}

/** `details` as one line of JSON; the pipeline has redacted them already. */
function detailsText(details: Record<string, unknown> | undefined): string {
  if (details === undefined || Object.keys(details).length === 0) return '';
  try {
    return ` ${JSON.stringify(details)}`;
  } catch {
    return '';
  }
}

/**
 * The logger `PARTNER_APIS_LOG` asks for, for a client given no `logger`: `debug` writes every
 * request and response of the wire log (redacted, as any logger gets it), `info` token events
 * and what is worse, `warn` retries, warnings and errors. Each line goes to standard error as
 * `[partner-apis] <level> <message> <details as JSON>`. Unset or blank, there is no logger;
 * any other value is ignored, with one warning per process.
 */
export function loggerFromEnv(sources: LogFromEnvSources = {}): Logger | undefined {
  const env = sources.env ?? processEnv();
  const value = env === undefined ? undefined : readLevel(env);
  if (value === undefined || value === '') return undefined;
  const from = LEVELS.indexOf(value as keyof Logger);
  if (from === -1 || value === 'error') {
    if (!warnedAbout.has(value)) {
      warnedAbout.add(value);
      (sources.warn ?? processWarning)(
        `${LOG_ENV}=${value} is not a log level (debug, info or warn); nothing is logged`,
      );
    }
    return undefined;
  }
  const write = sources.write ?? standardError;
  const logger: Logger = {};
  for (const level of LEVELS.slice(from)) {
    logger[level] = (message, details) =>
      write(`[partner-apis] ${level} ${message}${detailsText(details)}`);
  }
  return logger;
}
