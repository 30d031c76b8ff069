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
      url: 'https://api.test/v1/quotes?[redacted]',
      source: { name: 'liability', layer: 'experience' },
    });
    expect(error.message).toBe(
      'data_validation happened. (HTTP 400 from POST https://api.test/v1/quotes?[redacted])',
    );
    expect(error.causes).toEqual([
      {
        code: 'enum',
        message: 'not allowed',
        field: '/declarations/0/value',
        pointer: ['declarations', '0', 'value'],
      },
    ]);
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
      'HTTP 502 Bad Gateway from GET https://api.test/v1/approvals?[redacted] with a body that is not an error body (text/html)',
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
  });
});
