import { scrubSecrets } from '@partner-apis/errors';
import { visibleText } from './output/safe-text.js';

/** What the clients' `logger` option takes (a `console`-like object). */
export interface WireLogger {
  debug(message: string, details?: Record<string, unknown>): void;
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

/**
 * The `--debug` wire log: one `debug:` line per request, response, retry, token refresh and key
 * failover, with the headers the pipeline lets through its redactor (credential headers are
 * always `[redacted]`). Every line is scrubbed of the configured secrets as well, and control
 * characters are shown as escapes.
 *
 * @example
 * const logger = createDebugLogger((line) => process.stderr.write(line), () => ['s3cret']);
 */
export function createDebugLogger(
  write: (text: string) => void,
  secrets: () => readonly string[],
): WireLogger {
  const log = (level: string) => (message: string, details?: Record<string, unknown>) => {
    const lines = [`debug: ${level === 'debug' ? '' : `${level}: `}${message}`];
    const headers = details?.headers;
    if (headers !== undefined) lines.push(`debug:   headers ${JSON.stringify(headers)}`);
    const error = details?.error;
    if (error !== undefined && level !== 'debug') {
      lines.push(`debug:   error ${JSON.stringify(error)}`);
    }
    write(`${visibleText(scrubSecrets(lines.join('\n'), secrets()), '\n')}\n`);
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}
