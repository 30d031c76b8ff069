import {
  ApiError,
  ConfigurationError,
  ConnectionError,
  InvalidArgumentError,
  NotFoundError,
  TokenError,
} from '@partner-apis/errors';
import { describe, expect, test } from 'vitest';
import { reportError, scrub } from './error-report.js';
import { inColour } from './help-format.js';
import { ExitCode } from './exit-codes.js';
import { DataError, ReportedFailure, UsageError } from './usage-error.js';

function report(error: unknown, secrets: string[] = []) {
  let text = '';
  const code = reportError(error, { write: (t) => (text += t), secrets });
  return { code, text };
}

describe('reportError', () => {
  test('an API error: status, code, message, correlation id and every cause with its pointer', () => {
    const error = new ApiError({
      status: 400,
      code: 'data_validation',
      message: 'The request does not adhere to the specification',
      correlationId: 'corr-42',
      causes: [
        {
          message: 'must be one of EU-ASIA, US-CA-UK-IL-CL-AU, OTHERS',
          field: '/policyLines/0/declarativeQuestionAnswers/countryOfSales',
          code: 'enum',
        },
        { message: 'is required' },
      ],
      request: { method: 'POST', url: 'http://127.0.0.1/quotes', requestId: 'req-1' },
    });
    const { code, text } = report(error);
    expect(code).toBe(ExitCode.failure);
    expect(text).toBe(
      [
        'error: 400 data_validation: The request does not adhere to the specification',
        '  correlationId: corr-42',
        '  requestId: req-1',
        '  cause: /policyLines/0/declarativeQuestionAnswers/countryOfSales: must be one of EU-ASIA, US-CA-UK-IL-CL-AU, OTHERS (enum)',
        '  cause: is required',
        '',
      ].join('\n'),
    );
    expect(text).not.toMatch(/\bat .*\.js:\d+/);
  });

  test('a 401 of a service that takes credentials on every call has the hint a refused token has', () => {
    const error = new ApiError({
      status: 401,
      code: 'authentication_error',
      message: 'Invalid client credentials.',
    });
    expect(report(error).text).toBe(
      'error: 401 authentication_error: Invalid client credentials.\n' +
        '  hint: check the client ID and secret (`partner-apis config list` shows those in use and where they come from); a secret expires one year after it was set (`partner-apis credentials check`)\n',
    );
  });

  test('a short secret is blanked where it stands alone, never inside the words of a message', () => {
    const error = new ConnectionError({
      request: { method: 'GET', url: 'http://127.0.0.1:9/liability/v1/quotes' },
      systemCode: 'ECONNREFUSED',
      requestMayHaveBeenSent: false,
    });
    expect(report(error, ['b', 'err']).text).toBe(
      'error: ConnectionError: GET http://127.0.0.1:9/liability/v1/quotes: connection failed (ECONNREFUSED)\n',
    );
    expect(scrub('token b and err: b', ['b', 'err'])).toBe(
      'token [redacted] and [redacted]: [redacted]',
    );
    expect(scrub('key 3f9c1b7e5a2d4c6b in key3f9c1b7e5a2d4c6b', ['3f9c1b7e5a2d4c6b'])).toBe(
      'key [redacted] in key[redacted]',
    );
  });

  test('errors are red on a terminal, unless NO_COLOR is set; never in a pipe', () => {
    const text = 'error: 404 not_found: No quote\n  correlationId: c-1\n';
    expect(inColour(text, { isTTY: true }, {})).toBe(
      '\x1b[31merror:\x1b[39m 404 not_found: No quote\n  correlationId: c-1\n',
    );
    expect(inColour(text, { isTTY: true }, { NO_COLOR: '1' })).toBe(text);
    expect(inColour(text, { isTTY: false }, {})).toBe(text);
  });

  test('status subclasses and a body that was not an error body', () => {
    const error = new NotFoundError({ status: 404, code: 'not_found', message: 'No quote QTE-9' });
    expect(report(error)).toEqual({ code: 1, text: 'error: 404 not_found: No quote QTE-9\n' });
    const html = new ApiError({
      status: 502,
      code: 'unexpected_response',
      message: 'HTTP 502',
      rawBody: '<html>bad gateway</html>',
    });
    expect(report(html).text).toContain('  body: <html>bad gateway</html>');
  });

  test('configuration, argument and usage mistakes exit with 2', () => {
    expect(report(new ConfigurationError('PARTNER_APIS_LIABILITY_BASE_URL', 'is not set'))).toEqual(
      {
        code: ExitCode.usage,
        text: 'configuration error: PARTNER_APIS_LIABILITY_BASE_URL: is not set\n',
      },
    );
    expect(
      report(new InvalidArgumentError('quoteId', 'must be a non-empty string', 'quotes.get')),
    ).toEqual({
      code: ExitCode.usage,
      text: 'invalid argument: quotes.get: quoteId must be a non-empty string\n',
    });
    expect(report(new UsageError('--page-size must be at most 1024'))).toEqual({
      code: ExitCode.usage,
      text: 'error: --page-size must be at most 1024\n',
    });
  });

  test('token and transport failures exit with 1', () => {
    const token = new TokenError({
      status: 401,
      error: 'invalid_client',
      tokenUrl: 'http://127.0.0.1/auth/login/connect/token',
    });
    expect(report(token).text).toMatch(
      /^error: 401 invalid_client: Token request to http:\/\/127\.0\.0\.1\/auth\/login\/connect\/token refused/,
    );
    expect(report(token).code).toBe(1);
    const connection = new ConnectionError({
      request: { method: 'GET', url: 'http://127.0.0.1:9/approvals?employeeNumber=1' },
      systemCode: 'ECONNREFUSED',
      requestMayHaveBeenSent: false,
    });
    expect(report(connection)).toEqual({
      code: 1,
      text: 'error: ConnectionError: GET http://127.0.0.1:9/approvals?employeeNumber=1: connection failed (ECONNREFUSED)\n',
    });
  });

  test('an error already printed adds nothing', () => {
    expect(report(new ReportedFailure())).toEqual({ code: 1, text: '' });
  });

  test('anything else is an internal error: its message, never the JavaScript class, a stack or a secret', () => {
    const { code, text } = report(new TypeError('bad key abc123 in request'), ['abc123']);
    expect(code).toBe(1);
    expect(text).toBe(
      'internal error: bad key [redacted] in request (please report this; --debug shows where it happened)\n',
    );
    expect(text).not.toContain('TypeError');
    expect(report('plain').text).toMatch(/^internal error: plain /);
  });

  test('a data error and a failure of the system are exit code 1 with their message', () => {
    expect(report(new DataError('the service sent a record that is not an object'))).toEqual({
      code: 1,
      text: 'error: the service sent a record that is not an object\n',
    });
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
      syscall: 'write',
    });
    expect(report(full)).toEqual({
      code: 1,
      text: 'error: ENOSPC: no space left on device, write\n',
    });
  });

  test('escape sequences in a server message are shown, not sent to the terminal', () => {
    const error = new ApiError({
      status: 400,
      code: 'data_validation',
      message: 'bad\x1b]0;owned\x07 value',
      causes: [{ message: 'no\x1b[2J', field: '/x' }],
    });
    const { text } = report(error);
    expect(text).not.toContain('\x1b');
    expect(text).toContain('bad\\x1b]0;owned\\x07 value');
    expect(text).toContain('cause: /x: no\\x1b[2J');
  });

  test("an operation a server names and an argument the client refuses are told in the command line's words", () => {
    let text = '';
    const target = {
      write: (t: string) => (text += t),
      secrets: [],
      commandOf: (method: string, path: string) =>
        method === 'POST' && path === '/parties/sellers'
          ? 'partner-apis liability sellers create'
          : undefined,
      flagOf: (operation: string | undefined, argument: string) =>
        operation === 'quotes.search' && argument === 'createdFrom' ? '--created-from' : undefined,
    };
    reportError(
      new ApiError({
        status: 400,
        code: 'data_validation',
        message: 'cannot be quoted',
        causes: [{ message: 'No seller; create it with POST /parties/sellers first.' }],
      }),
      target,
    );
    expect(text).toContain('create it with `partner-apis liability sellers create` first.');
    text = '';
    const code = reportError(
      new InvalidArgumentError(
        'createdFrom',
        'must be a Date or an RFC 3339 date-time such as 2026-03-01T00:00:00Z (got "2026-03-01")',
        'quotes.search',
      ),
      target,
    );
    expect(code).toBe(ExitCode.usage);
    expect(text).toBe(
      'error: --created-from must be an RFC 3339 date-time such as 2026-03-01T00:00:00Z (got "2026-03-01")\n',
    );
  });
});
