import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  BadGatewayError,
  InternalServerError,
  MAX_RAW_BODY_LENGTH,
  MethodNotAllowedError,
  NotAcceptableError,
  NotFoundError,
  PreconditionFailedError,
  PreconditionRequiredError,
  RateLimitError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
  ValidationError,
  apiErrorFromResponse,
  errorClassForStatus,
} from './index.js';

const request = {
  method: 'POST',
  url: 'https://api.test/v1/quotes?sellerId=42',
  requestId: 'r-1',
  conversationId: 'c-1',
};

function response(status: number, headers: Record<string, string> = {}, statusText = '') {
  return { status, statusText, headers: new Headers(headers) };
}

const errorBody = (code: string, extra: object = {}) =>
  JSON.stringify({ code, message: `${code} happened.`, correlationId: 'corr-1', ...extra });

describe('errorClassForStatus', () => {
  it.each([
    [400, ValidationError],
    [401, AuthenticationError],
    [404, NotFoundError],
    [405, MethodNotAllowedError],
    [406, NotAcceptableError],
    [412, PreconditionFailedError],
    [415, UnsupportedMediaTypeError],
    [428, PreconditionRequiredError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, BadGatewayError],
    [503, ServiceUnavailableError],
    [403, ApiError],
    [504, ApiError],
    [418, ApiError],
  ])('maps %i to %o', (status, ErrorClass) => {
    expect(errorClassForStatus(status)).toBe(ErrorClass);
    const error = apiErrorFromResponse({ response: response(status), text: '', request });
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.name).toBe(ErrorClass.kind);
    expect(error.status).toBe(status);
  });
});

describe('apiErrorFromResponse', () => {
  it('reads the common error body into the status subclass', () => {
    const error = apiErrorFromResponse({
      response: response(400),
      text: errorBody('data_validation', {
        source: { name: 'liability', layer: 'experience' },
        causes: [{ code: 'enum', message: 'not allowed', field: '/declarations/0/value' }],
      }),
      request,
    });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      status: 400,
      code: 'data_validation',
      correlationId: 'corr-1',
      requestId: 'r-1',
      conversationId: 'c-1',
      method: 'POST',
      url: 'https://api.test/v1/quotes?sellerId=42',
      source: { name: 'liability', layer: 'experience' },
    });
    expect(error.message).toBe(
      'data_validation happened. (/declarations/0/value: not allowed) ' +
        '(HTTP 400 from POST https://api.test/v1/quotes?sellerId=42)',
    );
    expect(error.causes).toEqual([
      {
        code: 'enum',
        message: 'not allowed',
        field: '/declarations/0/value',
        pointer: ['declarations', '0', 'value'],
      },
    ]);
    expect(error.body).toEqual({
      code: 'data_validation',
      message: 'data_validation happened.',
      correlationId: 'corr-1',
      source: { name: 'liability', layer: 'experience' },
      causes: [{ code: 'enum', message: 'not allowed', field: '/declarations/0/value' }],
    });
  });

  it('gives each cause the value its field points at when the request body is known', () => {
    const error = apiErrorFromResponse({
      response: response(400),
      text: errorBody('data_validation', {
        causes: [
          { message: 'bad', field: '/declarations/1/a~1b' },
          { message: 'missing', field: '/nothing/here' },
          { message: 'not a pointer', field: 'declarations' },
        ],
      }),
      request,
      requestBody: { declarations: [{}, { 'a/b': 'OTHERS' }] },
    });
    const [first, second, third] = error.causes;
    expect(first).toMatchObject({ pointer: ['declarations', '1', 'a/b'], value: 'OTHERS' });
    expect(second).toHaveProperty('value', undefined);
    expect(third).not.toHaveProperty('pointer');
    expect(JSON.stringify(error)).not.toContain('OTHERS');
  });

  it('HTML 502 from a gateway: BadGatewayError with a clear message and the text cut short', () => {
    const html = `<html><body>${'Bad gateway '.repeat(200)}</body></html>`;
    const error = apiErrorFromResponse({
      response: response(502, { 'content-type': 'text/html' }, 'Bad Gateway'),
      text: html,
      request: { method: 'GET', url: 'https://api.test/v1/approvals?employeeNumber=42' },
    });
    expect(error).toBeInstanceOf(BadGatewayError);
    expect(error.code).toBe('unexpected_response');
    expect(error.message).toBe(
      'HTTP 502 Bad Gateway from GET https://api.test/v1/approvals?employeeNumber=42 with a body that is not an error body (text/html)',
    );
    expect(error.rawBody).toHaveLength(MAX_RAW_BODY_LENGTH);
  });

  it.each([
    ['empty', '', 'with an empty body'],
    ['truncated JSON', '{"code":"internal_server_error","mess', 'not an error body'],
    ['a JSON array', '[1,2,3]', 'not an error body'],
    ['JSON null', 'null', 'not an error body'],
    ['an object without code', '{"message":"x"}', 'not an error body'],
    ['an object with a numeric code', '{"code":5,"message":"x","correlationId":"c"}', 'not'],
  ])('a body that is %s still gives ServiceUnavailableError', (_, text, expected) => {
    const error = apiErrorFromResponse({
      response: response(503, { 'content-type': 'application/json' }),
      text,
      request,
    });
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.code).toBe('unexpected_response');
    expect(error.message).toContain(expected);
    expect(error.message).toContain('HTTP 503');
  });

  it('takes the correlation id from x-correlation-id, then correlation-id, when the body has none', () => {
    const fromX = apiErrorFromResponse({
      response: response(502, { 'x-correlation-id': 'hdr-x', 'correlation-id': 'hdr-plain' }),
      text: '<html></html>',
    });
    expect(fromX.correlationId).toBe('hdr-x');
    const fromPlain = apiErrorFromResponse({
      response: response(502, { 'correlation-id': 'hdr-plain' }),
      text: '',
    });
    expect(fromPlain.correlationId).toBe('hdr-plain');
    const fromBody = apiErrorFromResponse({
      response: response(401, { 'x-correlation-id': 'hdr-x' }),
      text: errorBody('authentication_error'),
    });
    expect(fromBody.correlationId).toBe('corr-1');
    const emptyInBody = apiErrorFromResponse({
      response: response(401, { 'x-correlation-id': 'hdr-x' }),
      text: errorBody('authentication_error', { correlationId: '' }),
    });
    expect(emptyInBody.correlationId).toBe('hdr-x');
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    const seconds = apiErrorFromResponse({
      response: response(429, { 'retry-after': '7' }),
      text: '',
      now,
    });
    expect(seconds).toBeInstanceOf(RateLimitError);
    expect(seconds.retryAfterMs).toBe(7000);
    const date = apiErrorFromResponse({
      response: response(503, { 'retry-after': 'Sun, 22 Nov 2026 10:00:30 GMT' }),
      text: '',
      now,
    });
    expect(date.retryAfterMs).toBe(30_000);
    expect(
      apiErrorFromResponse({ response: response(429, { 'retry-after': 'soon' }), text: '' })
        .retryAfterMs,
    ).toBeUndefined();
  });

  it('scrubs credential values the server echoed back', () => {
    const error = apiErrorFromResponse({
      response: response(400, { 'content-type': 'text/plain' }, 'Bad s3cr3t'),
      text: 'you sent client_secret=s3cr3t and Bearer tok-123',
      request,
      secrets: ['s3cr3t', 'tok-123', ''],
    });
    expect(error.rawBody).toBe('you sent client_secret=[redacted] and Bearer [redacted]');
    expect(error.message).not.toContain('s3cr3t');
    const withBody = apiErrorFromResponse({
      response: response(401),
      text: errorBody('authentication_error', { message: 'key s3cr3t refused' }),
      secrets: ['s3cr3t'],
    });
    expect(withBody.message).toBe('key [redacted] refused (HTTP 401)');
    expect(withBody.body?.message).toBe('key [redacted] refused');
    expect(error.body).toBeUndefined();
  });

  it('shows the first cause in the message, its pointer first, and counts the others', () => {
    const message = (causes: object[]) =>
      apiErrorFromResponse({
        response: response(400),
        text: JSON.stringify({
          code: 'data_validation',
          message: 'The request does not adhere to the specification.',
          correlationId: 'c',
          causes,
        }),
      }).message;
    expect(message([{ message: 'must NOT have fewer than 1 items', field: '/policyLines' }])).toBe(
      'The request does not adhere to the specification. ' +
        '(/policyLines: must NOT have fewer than 1 items) (HTTP 400)',
    );
    expect(
      message([
        { message: 'must be string', field: '/seller/name' },
        { message: 'x' },
        { message: 'y' },
      ]),
    ).toBe(
      'The request does not adhere to the specification. ' +
        '(/seller/name: must be string; 2 more in causes) (HTTP 400)',
    );
    expect(message([{ message: 'no field' }])).toContain('specification. (no field) (HTTP');
    expect(message([])).toBe('The request does not adhere to the specification. (HTTP 400)');
    expect(message([{ message: 'long '.repeat(100), field: '/a' }])).toMatch(
      /\(\/a: (long ){40}…\) \(HTTP 400\)$/,
    );
  });

  it('keeps the first cause of an echoed secret scrubbed', () => {
    const error = apiErrorFromResponse({
      response: response(400),
      text: errorBody('data_validation', { causes: [{ message: 'bad key s3cr3t', field: '/k' }] }),
      secrets: ['s3cr3t'],
    });
    expect(error.message).toBe('data_validation happened. (/k: bad key [redacted]) (HTTP 400)');
  });
});

describe('apiErrorFromResponse of a body cut at the size limit', () => {
  const cut = (text: string, status = 500, method = 'POST') =>
    apiErrorFromResponse({
      response: response(status, { 'content-type': 'application/json' }, 'Internal Server Error'),
      text,
      request: { ...request, method },
      truncated: true,
      maxResponseBytes: 1000,
      mayHaveTakenEffect: method === 'POST',
    });

  it('keeps the status class and says the body was cut', () => {
    const error = cut('{"code":"internal_server_error","message":"x", "padding":"      ');
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({
      status: 500,
      code: 'response_too_large',
      mayHaveTakenEffect: true,
    });
    expect(error.message).toBe(
      'HTTP 500 Internal Server Error from POST https://api.test/v1/quotes?sellerId=42 with a ' +
        'body (application/json) larger than maxResponseBytes (1000 bytes), cut there',
    );
    expect(error.rawBody).toMatch(/^\{"code":"internal_server_error"/);
    expect(cut('', 503, 'GET')).toMatchObject({
      code: 'response_too_large',
      mayHaveTakenEffect: false,
    });
    expect(cut('', 503, 'GET')).toBeInstanceOf(ServiceUnavailableError);
  });

  it('reads a whole error body at its start, and still says the rest was cut', () => {
    const error = cut(`${errorBody('internal_server_error')}${' '.repeat(100)}`);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.code).toBe('internal_server_error');
    expect(error.message).toBe(
      'internal_server_error happened. (HTTP 500 from POST https://api.test/v1/quotes?sellerId=42; ' +
        'the body was larger than maxResponseBytes (1000 bytes), cut there)',
    );
  });
});
