import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTokenErrorBody, parseTokenResponse } from './index.js';

// Property runs are CPU-bound: give them room on a loaded machine.
describe('parseTokenResponse', { timeout: 30_000 }, () => {
  it.each([
    ['{"access_token":"t","token_type":"Bearer","expires_in":3600}', { expires_in: 3600 }],
    ['{"access_token":"t","token_type":"bearer","expires_in":"120"}', { expires_in: 120 }],
    ['{"access_token":"t"}', { token_type: 'Bearer' }],
    ['{"access_token":"t","token_type":"Bearer","expires_in":-5}', {}],
    ['{"access_token":"t","token_type":"Bearer","expires_in":"soon"}', {}],
  ])('reads %s', (text, expected) => {
    const response = parseTokenResponse(text);
    expect(response).toMatchObject({ access_token: 't', ...expected });
    if (!('expires_in' in expected)) expect(response?.expires_in).toBeUndefined();
  });

  it.each([
    '',
    '<html>',
    'null',
    '[]',
    '{"access_token":""}',
    '{"access_token":5}',
    '{"access_token":"t","token_type":"MAC"}',
  ])('gives undefined for %j', (text) => {
    expect(parseTokenResponse(text)).toBeUndefined();
  });

  it('never throws on any text or JSON value', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        (text) => {
          parseTokenResponse(text);
          parseTokenErrorBody(text);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('never throws on objects near the token response shape', () => {
    const near = fc.record(
      {
        access_token: fc.oneof(fc.string(), fc.jsonValue()),
        token_type: fc.oneof(fc.constant('Bearer'), fc.string(), fc.jsonValue()),
        expires_in: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.jsonValue()),
        scope: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(near, (value) => {
        const parsed = parseTokenResponse(JSON.stringify(value));
        if (parsed?.expires_in !== undefined) expect(parsed.expires_in).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('parseTokenErrorBody', () => {
  it('reads RFC 6749 §5.2 bodies and keeps codes outside the list', () => {
    expect(
      parseTokenErrorBody(
        '{"error":"invalid_client","error_description":"Bad.","error_uri":"https://x.test/e"}',
      ),
    ).toEqual({
      error: 'invalid_client',
      error_description: 'Bad.',
      error_uri: 'https://x.test/e',
    });
    expect(parseTokenErrorBody('{"error":"temporarily_unavailable"}')).toEqual({
      error: 'temporarily_unavailable',
    });
    expect(parseTokenErrorBody('{"statusCode":401,"message":"Access denied"}')).toBeUndefined();
  });
});
