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
}

function apiErrorLines(error: ApiError): string[] {
  const lines = [`error: ${error.status} ${error.code}: ${error.message}`];
  if (error.correlationId !== undefined) lines.push(`  correlationId: ${error.correlationId}`);
  if (error.requestId !== undefined) lines.push(`  requestId: ${error.requestId}`);
  for (const cause of error.causes) {
    const where = cause.field === undefined ? '' : `${cause.field}: `;
    const code = cause.code === undefined ? '' : ` (${cause.code})`;
    lines.push(`  cause: ${where}${cause.message}${code}`);
  }
  if (error.rawBody !== undefined) lines.push(`  body: ${error.rawBody.slice(0, 200)}`);
  return lines;
}

/** A failure of the operating system (a full disk, a closed pipe), whose message says it all. */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

function describe(error: unknown): { lines: string[]; code: ExitCode } {
  if (error instanceof ReportedFailure) return { lines: [], code: ExitCode.failure };
  if (error instanceof UsageError)
    return { lines: [`error: ${error.message}`], code: ExitCode.usage };
  if (error instanceof DataError)
    return { lines: [`error: ${error.message}`], code: ExitCode.failure };
  if (error instanceof ConfigurationError) {
    return { lines: [`configuration error: ${error.message}`], code: ExitCode.usage };
  }
  if (error instanceof InvalidArgumentError) {
    return { lines: [`invalid argument: ${error.message}`], code: ExitCode.usage };
  }
  if (error instanceof ApiError) return { lines: apiErrorLines(error), code: ExitCode.failure };
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
 * Prints an error the way every command does: status, code, message, correlation id and each
 * cause with its JSON Pointer; never a stack trace, never a credential. Returns the exit code.
 *
 * @example
 * process.exitCode = reportError(error, { write: (t) => process.stderr.write(t), secrets: [] });
 */
export function reportError(error: unknown, target: ErrorReportTarget): ExitCode {
  const { lines, code } = describe(error);
  if (lines.length === 0) return code;
  // A server's message may carry terminal escape sequences: they are shown, never obeyed.
  target.write(`${visibleText(scrubSecrets(lines.join('\n'), target.secrets), '\n')}\n`);
  if (target.debug === true && error instanceof Error && error.stack !== undefined) {
    target.write(`${visibleText(scrubSecrets(error.stack, target.secrets), '\n')}\n`);
  }
  return code;
}
