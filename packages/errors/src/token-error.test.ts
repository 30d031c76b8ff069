import { describe, expect, it } from 'vitest';
import { TokenError } from './index.js';

const tokenUrl = 'https://auth.test/login/connect/token';

describe('TokenError hints', () => {
  it('points at the client ID and secret for a refused client', () => {
    const error = new TokenError({ status: 401, error: 'invalid_client', tokenUrl });
    expect(error.message).toContain('check the client ID and secret');
  });

  it('points at the subscription key when the refusal names it, not at the client secret', () => {
    const error = new TokenError({
      status: 401,
      error: 'invalid_client',
      errorDescription: 'Access denied: the subscription key is missing, unknown or revoked.',
      tokenUrl,
    });
    expect(error.message).toContain('check the subscription key of this API scope');
    expect(error.message).not.toContain('client ID and secret');
  });
});
