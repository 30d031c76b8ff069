import { scrub } from './error-report.js';
import { visibleText } from './output/safe-text.js';

/** What the clients' `logger` option takes (a `console`-like object). */
export interface WireLogger {
  debug?(message: string, details?: Record<string, unknown>): void;
  info?(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

/** How a client's log reaches the terminal. */
export interface ClientLogTarget {
  /** Writes text to stderr as it is. */
  write(text: string): void;
  /** The configured secrets, blanked out of every line. */
  secrets(): readonly string[];
  /** `--debug`: every request, response, retry, token refresh and key failover. */
  debug: boolean;
  /** A warning for the person at the terminal, through the CLI's own notes; `code` is the client's. */
  warn(message: string, code: unknown): void;
}

/**
 * The logger of a client. Without `--debug` only what the person at the terminal must act on
 * gets through, as a warning (a client secret about to expire, a subscription key refused);
 * it takes the place of Node's process warnings, which would print `(node:PID) …` lines.
 * With `--debug` it is the wire log: one `debug:` line per request, response, retry, token
 * refresh and key failover, with the headers the pipeline lets through its redactor (credential
 * headers are always `[redacted]`). Every line is scrubbed of the configured secrets, and
 * control characters are shown as escapes.
 */
export function createClientLogger(target: ClientLogTarget): WireLogger {
  const clean = (text: string) => visibleText(scrub(text, target.secrets()), '\n');
  if (!target.debug) {
    const warn = (message: string, details?: Record<string, unknown>) => {
      // A retry carries its error; it is the client's own business unless --debug asks.
      if (details?.error === undefined) target.warn(clean(message), details?.code);
    };
    return { warn, error: warn };
  }
  const log = (level: string) => (message: string, details?: Record<string, unknown>) => {
    const lines = [`debug: ${level === 'debug' ? '' : `${level}: `}${message}`];
    const headers = details?.headers;
    if (headers !== undefined) lines.push(`debug:   headers ${JSON.stringify(headers)}`);
    const error = details?.error;
    if (error !== undefined && level !== 'debug') {
      lines.push(`debug:   error ${JSON.stringify(error)}`);
    }
    target.write(`${clean(lines.join('\n'))}\n`);
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}
