import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOG_ENV, loggerFromEnv } from './log-from-env.js';
import type { Logger } from './observer.js';

/** Logs one line at every level through the logger `value` asks for; returns what was written. */
function written(value: string | undefined): string[] {
  const lines: string[] = [];
  const logger = loggerFromEnv({ env: { [LOG_ENV]: value }, write: (line) => lines.push(line) });
  for (const level of ['debug', 'info', 'warn', 'error'] as const) {
    logger?.[level]?.(`a ${level} line`);
  }
  return lines;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('loggerFromEnv', () => {
  it.each([
    ['debug', ['debug', 'info', 'warn', 'error']],
    ['info', ['info', 'warn', 'error']],
    ['warn', ['warn', 'error']],
    [' DEBUG ', ['debug', 'info', 'warn', 'error']],
  ])('%s writes the lines of its level and above', (value, levels) => {
    expect(written(value)).toEqual(
      levels.map((level) => `[partner-apis] ${level} a ${level} line`),
    );
  });

  it('gives no logger when the variable is unset or blank', () => {
    expect(loggerFromEnv({ env: {} })).toBeUndefined();
    expect(loggerFromEnv({ env: { [LOG_ENV]: '  ' } })).toBeUndefined();
  });

  it('writes the details as one line of JSON after the message', () => {
    const lines: string[] = [];
    const logger = loggerFromEnv({ env: { [LOG_ENV]: 'debug' }, write: (l) => lines.push(l) });
    logger?.debug?.('→ GET https://api.example.com/items (attempt 1)', {
      attempt: 1,
      headers: { authorization: '[redacted]' },
    });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    logger?.warn?.('odd details', circular);
    expect(lines).toEqual([
      '[partner-apis] debug → GET https://api.example.com/items (attempt 1) ' +
        '{"attempt":1,"headers":{"authorization":"[redacted]"}}',
      '[partner-apis] warn odd details',
    ]);
  });

  it('ignores a value that is not a level, with one warning however many clients ask', () => {
    const warn = vi.fn();
    const write = vi.fn();
    for (let i = 0; i < 3; i += 1) {
      expect(loggerFromEnv({ env: { [LOG_ENV]: 'verbose' }, write, warn })).toBeUndefined();
    }
    expect(loggerFromEnv({ env: { [LOG_ENV]: 'error' }, write, warn })).toBeUndefined();
    expect(warn.mock.calls).toEqual([
      ['PARTNER_APIS_LOG=verbose is not a log level (debug, info or warn); nothing is logged'],
      ['PARTNER_APIS_LOG=error is not a log level (debug, info or warn); nothing is logged'],
    ]);
    expect(write).not.toHaveBeenCalled();
  });

  it('reads process.env and writes to standard error by default', () => {
    vi.stubEnv(LOG_ENV, 'warn');
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const logger: Logger | undefined = loggerFromEnv();
    logger?.warn?.('retrying');
    expect(logger?.info).toBeUndefined();
    expect(stderr).toHaveBeenCalledWith('[partner-apis] warn retrying\n');
    vi.unstubAllEnvs();
  });

  it('warns through a process warning by default', () => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    loggerFromEnv({ env: { [LOG_ENV]: 'loud' } });
    expect(emit).toHaveBeenCalledWith(
      'PARTNER_APIS_LOG=loud is not a log level (debug, info or warn); nothing is logged',
    );
  });

  it('gives no logger where reading the environment throws (Deno without --allow-env)', () => {
    const env = new Proxy(
      {},
      {
        get() {
          throw new Error('Requires env access');
        },
      },
    );
    expect(loggerFromEnv({ env })).toBeUndefined();
  });
});
