import {
  ApiError,
  ConfigurationError,
  InvalidArgumentError,
  PartnerApisError,
  TokenError,
  scrubSecrets,
} from '@partner-apis/errors';
import { ExitCode } from './exit-codes.js';
import { visibleText } from './output/safe-text.js';
import { DataError, ReportedFailure, UsageError } from './usage-error.js';

/** Where an error report goes, and the values it must never show. */
export interface ErrorReportTarget {
  write(text: string): void;
  /** Credential values to blank out should any message carry one. */
  readonly secrets: readonly string[];
  /** `--debug`: add the stack of an internal error. */
  readonly debug?: boolean | undefined;
  /**
   * The command that calls an operation (`POST /parties/sellers` → `partner-apis liability
   * sellers create`), so a server's hint names what a person at a shell can type.
   */
  readonly commandOf?: ((method: string, path: string) => string | undefined) | undefined;
  /**
   * How the command line gives an argument the client refused (`createdFrom` of `quotes.search`
   * → `--created-from`).
   */
  readonly flagOf?:
    ((operation: string | undefined, argument: string) => string | undefined) | undefined;
}

/** An operation named in a server's message: `POST /parties/sellers`. */
const OPERATION_IN_TEXT = /\b(GET|POST|PUT|PATCH|DELETE) (\/[\w\-./{}]*)/g;

function withCommands(text: string, target: ErrorReportTarget): string {
  const { commandOf } = target;
  if (commandOf === undefined) return text;
  return text.replace(OPERATION_IN_TEXT, (operation: string, method: string, path: string) => {
    const command = commandOf(method, path);
    return command === undefined ? operation : `\`${command}\``;
  });
}

/** What to do about a 401, said by the commands and the MCP tools alike. */
export const AUTH_HINT =
  'check the client ID and secret (`partner-apis config list` shows those in use and where they come from); a secret expires one year after it was set (`partner-apis credentials check`)';

function apiErrorLines(error: ApiError, target: ErrorReportTarget): string[] {
  const lines = [`error: ${error.status} ${error.code}: ${withCommands(error.message, target)}`];
  if (error.correlationId !== undefined) lines.push(`  correlationId: ${error.correlationId}`);
  if (error.requestId !== undefined) lines.push(`  requestId: ${error.requestId}`);
  for (const cause of error.causes) {
    const where = cause.field === undefined ? '' : `${cause.field}: `;
    const code = cause.code === undefined ? '' : ` (${cause.code})`;
    lines.push(`  cause: ${where}${withCommands(cause.message, target)}${code}`);
  }
  if (error.rawBody !== undefined) lines.push(`  body: ${error.rawBody.slice(0, 200)}`);
  // What a refused token request says for exposure, said for the services that take the
  // credentials on every call (liability, approvals).
  if (error.status === 401) lines.push(`  hint: ${AUTH_HINT}`);
  return lines;
}

/** A failure of the operating system (a full disk, a closed pipe), whose message says it all. */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

/**
 * A refused argument named as the command line names it (`createdFrom` is the option
 * `--created-from`); the library's `Date` is not a choice at a shell.
 */
function argumentLine(error: InvalidArgumentError, target: ErrorReportTarget): string {
  const flag = target.flagOf?.(error.operation, error.argument);
  if (flag === undefined) return `invalid argument: ${error.message}`;
  const problem = error.problem.replace(/\ba Date or (an? )/g, '$1');
  return `error: ${flag} ${problem}`;
}

function describe(error: unknown, target: ErrorReportTarget): { lines: string[]; code: ExitCode } {
  if (error instanceof ReportedFailure) return { lines: [], code: ExitCode.failure };
  if (error instanceof UsageError)
    return { lines: [`error: ${error.message}`], code: ExitCode.usage };
  if (error instanceof DataError)
    return { lines: [`error: ${error.message}`], code: ExitCode.failure };
  if (error instanceof ConfigurationError) {
    return { lines: [`configuration error: ${error.message}`], code: ExitCode.usage };
  }
  if (error instanceof InvalidArgumentError) {
    return { lines: [argumentLine(error, target)], code: ExitCode.usage };
  }
  if (error instanceof ApiError) {
    return { lines: apiErrorLines(error, target), code: ExitCode.failure };
  }
  if (error instanceof TokenError) {
    return {
      lines: [`error: ${error.status} ${error.error}: ${error.message}`],
      code: ExitCode.failure,
    };
  }
  if (error instanceof PartnerApisError) {
    return { lines: [`error: ${error.name}: ${error.message}`], code: ExitCode.failure };
  }
  if (isSystemError(error)) return { lines: [`error: ${error.message}`], code: ExitCode.failure };
  // A fault of the CLI itself: say so plainly, without the JavaScript error class.
  const text = error instanceof Error ? error.message : String(error);
  return {
    lines: [`internal error: ${text} (please report this; --debug shows where it happened)`],
    code: ExitCode.failure,
  };
}

/**
 * A secret shorter than this is blanked only where it stands alone: inside words (`b` in
 * `liability`, and in the Base64 runs `scrubSecrets` also looks at) it would garble every
 * message, and the blanks would spell the secret out.
 */
const SHORT_SECRET = 8;

/**
 * `text` with every secret blanked out, as `scrubSecrets` does; a short secret (a test value,
 * a mistake) only where it stands alone.
 */
export function scrub(text: string, secrets: readonly string[]): string {
  const short = secrets.filter((secret) => secret !== '' && secret.length < SHORT_SECRET);
  let result = scrubSecrets(
    text,
    secrets.filter((secret) => secret.length >= SHORT_SECRET),
  );
  for (const secret of short) {
    const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    result = result.replace(new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, 'g'), '[redacted]');
  }
  return result;
}

/**
 * Prints an error the way every command does: status, code, message, correlation id and each
 * cause with its JSON Pointer; never a stack trace, never a credential. Returns the exit code.
 */
export function reportError(error: unknown, target: ErrorReportTarget): ExitCode {
  const { lines, code } = describe(error, target);
  if (lines.length === 0) return code;
  // A server's message may carry terminal escape sequences: they are shown, never obeyed.
  target.write(`${visibleText(scrub(lines.join('\n'), target.secrets), '\n')}\n`);
  if (target.debug === true && error instanceof Error && error.stack !== undefined) {
    target.write(`${visibleText(scrub(error.stack, target.secrets), '\n')}\n`);
  }
  return code;
}
