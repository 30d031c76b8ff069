import { describe, expect, it } from 'vitest';
import { ConnectionError, TimeoutError } from './index.js';

describe('ConnectionError', () => {
  it.each([
    ['POST', true, true],
    ['DELETE', true, true],
    ['POST', false, false],
    ['GET', true, false],
    ['HEAD', true, false],
  ])('a %s that may have been sent: %s → mayHaveTakenEffect %s', (method, sent, effect) => {
    const error = new ConnectionError({
      request: { method, url: 'https://api.example.test/quotes' },
      requestMayHaveBeenSent: sent,
      reason: 'the response is not valid HTTP',
    });
    expect(error.mayHaveTakenEffect).toBe(effect);
    expect(error.toJSON()).toMatchObject({ mayHaveTakenEffect: effect });
    expect(error.message.includes('may have taken effect')).toBe(effect);
  });

  it('counts a request of unknown method that may have been sent as one that may have taken effect', () => {
    const error = new ConnectionError({ requestMayHaveBeenSent: true });
    expect(error.mayHaveTakenEffect).toBe(true);
    expect(error.message).toBe(
      'the request: connection failed; the request may have reached the server, so it may have taken effect',
    );
  });
});

describe('TimeoutError', () => {
  it.each([
    ['PATCH', undefined, true],
    ['PUT', false, false],
    ['GET', true, false],
  ] as const)('a %s, sent: %s → mayHaveTakenEffect %s', (method, sent, effect) => {
    const error = new TimeoutError({
      request: { method, url: 'https://api.example.test/quotes' },
      timeoutMs: 30_000,
      scope: 'attempt',
      requestMayHaveBeenSent: sent,
    });
    expect(error.mayHaveTakenEffect).toBe(effect);
    expect(error.toJSON()).toMatchObject({ mayHaveTakenEffect: effect });
  });
});
