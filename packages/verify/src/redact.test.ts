import { SECRET_ENCODINGS, encodeSecret } from '@partner-apis/testing';
import { describe, expect, it } from 'vitest';
import { REDACTED, createRedactor, redactValue } from './redact.js';

describe('createRedactor', () => {
  const secret = 'a+b/c d&é';
  const redact = createRedactor([secret, 'abc']);

  it.each(SECRET_ENCODINGS)('removes the secret in its %s encoding', (encoding) => {
    expect(redact(`before ${encodeSecret(secret, encoding)} after`)).toBe(
      `before ${REDACTED} after`,
    );
  });

  it('leaves secrets too short to tell from words', () => {
    expect(redact('abc')).toBe('abc');
  });

  it('reaches keys and values of a JSON value', () => {
    expect(redactValue({ [secret]: [secret, 1] }, redact)).toEqual({ [REDACTED]: [REDACTED, 1] });
  });
});
