import { describe, expect, it } from 'vitest';
import { ApiError, MAX_RAW_BODY_LENGTH } from './index.js';

const request = {
  method: 'GET',
  url: 'https://api.test/v1/approvals?employeeNumber=42',
  requestId: 'r-1',
};

function response(status: number, contentType = 'application/json') {
  return { status, statusText: '', headers: new Headers({ 'content-type': contentType }) };
}

describe('ApiError.fromResponseText (kept for clients built on 0.1)', () => {
  it('reads the common error body', () => {
    const error = ApiError.fromResponseText(
      response(400),
      JSON.stringify({
        code: 'data_validation',
        message: 'employeeNumber must not be empty.',
        correlationId: 'c-400',
        source: { name: 'approvals', layer: 'experience' },
        causes: [{ message: 'empty', field: '/employeeNumber' }, { nope: true }],
      }),
      request,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('data_validation');
    expect(error.correlationId).toBe('c-400');
    expect(error.source).toEqual({ name: 'approvals', layer: 'experience' });
    expect(error.causes).toEqual([
      { message: 'empty', field: '/employeeNumber', pointer: ['employeeNumber'] },
    ]);
    expect(error.requestId).toBe('r-1');
    expect(error.message).toContain('employeeNumber must not be empty.');
  });

  it('keeps the filters of the URL readable and redacts a key in it', () => {
    const error = ApiError.fromResponseText(response(500), '', {
      ...request,
      url: `${request.url}&subscription-key=k-123`,
    });
    expect(error.url).toBe(
      'https://api.test/v1/approvals?employeeNumber=42&subscription-key=[redacted]',
    );
    expect(error.message).not.toContain('k-123');
  });

  it('gives a plain ApiError for an HTML page from a gateway, with the raw text cut short', () => {
    const html = `<html><body>${'Bad gateway '.repeat(200)}</body></html>`;
    const error = ApiError.fromResponseText(
      {
        status: 502,
        statusText: 'Bad Gateway',
        headers: new Headers({ 'content-type': 'text/html' }),
      },
      html,
      request,
    );
    expect(error.name).toBe('ApiError');
    expect(error.status).toBe(502);
    expect(error.code).toBe('unexpected_response');
    expect(error.message).toBe(
      'HTTP 502 Bad Gateway from GET https://api.test/v1/approvals?employeeNumber=42 with a body that is not an error body (text/html)',
    );
    expect(error.rawBody).toHaveLength(MAX_RAW_BODY_LENGTH);
  });

  it.each([
    ['empty', ''],
    ['truncated', '{"code":"internal_server_error","mess'],
    ['a JSON value of another shape', '[1,2,3]'],
    ['an object without code', '{"message":"x"}'],
  ])('gives an ApiError for a body that is %s', (_, text) => {
    const error = ApiError.fromResponseText(response(503), text, request);
    expect(error.status).toBe(503);
    expect(error.code).toBe('unexpected_response');
    expect(error.correlationId).toBeUndefined();
  });
});
