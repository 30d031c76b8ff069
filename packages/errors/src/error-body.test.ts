import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apiErrorFromResponse, parseErrorBody } from './index.js';

// Property runs are CPU-bound: give them room on a loaded machine.
describe('parseErrorBody', { timeout: 30_000 }, () => {
  it('keeps the documented fields and drops causes of another shape', () => {
    expect(
      parseErrorBody(
        JSON.stringify({
          code: 'data_validation',
          message: 'Invalid.',
          correlationId: 'c-1',
          source: { name: 'approvals', layer: 7 },
          causes: [{ message: 'm', field: '/a', code: 3 }, 'x', null],
          extra: true,
        }),
      ),
    ).toEqual({
      code: 'data_validation',
      message: 'Invalid.',
      correlationId: 'c-1',
      source: { name: 'approvals' },
      causes: [{ message: 'm', field: '/a' }],
    });
  });

  it('never throws on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        parseErrorBody(text);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on any JSON value, and gives a body only with string code and message', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const body = parseErrorBody(JSON.stringify(value));
        if (body !== undefined) {
          expect(typeof body.code).toBe('string');
          expect(typeof body.message).toBe('string');
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on any object near the documented shape', () => {
    const near = fc.record(
      {
        code: fc.oneof(fc.string(), fc.jsonValue()),
        message: fc.oneof(fc.string(), fc.jsonValue()),
        correlationId: fc.oneof(fc.string(), fc.jsonValue()),
        source: fc.jsonValue(),
        causes: fc.oneof(fc.jsonValue(), fc.array(fc.dictionary(fc.string(), fc.jsonValue()))),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(near, (value) => {
        parseErrorBody(JSON.stringify(value));
      }),
      { numRuns: 1000 },
    );
  });

  it('apiErrorFromResponse never throws on any status, text or request body', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 599 }),
        fc.string(),
        fc.jsonValue(),
        fc.string(),
        (status, text, requestBody, retryAfter) => {
          const error = apiErrorFromResponse({
            response: { status, statusText: '', headers: new Headers({ 'retry-after': 'x' }) },
            text,
            requestBody,
            request: { method: 'GET', url: `https://h.test/${retryAfter}` },
          });
          expect(error.status).toBe(status);
          expect(error.message.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 500 },
    );
  });
});
