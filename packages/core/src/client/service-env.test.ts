import { ConfigurationError } from '@partner-apis/errors';
import { describe, expect, it } from 'vitest';
import { readServiceEnv } from '../index.js';
import { readEnvVariable } from '../internal.js';
import { requireEnvVariable } from './service-env.js';

const liability = {
  PARTNER_APIS_LIABILITY_BASE_URL: 'https://liability.example.com/v1/uat',
  PARTNER_APIS_LIABILITY_CLIENT_ID: 'client-7f3a',
  PARTNER_APIS_LIABILITY_CLIENT_SECRET: 's3cr3t-value-9c1d',
};

const exposure = {
  PARTNER_APIS_EXPOSURE_BASE_URL: 'https://portal.example.com',
  PARTNER_APIS_EXPOSURE_CLIENT_ID: 'exposure-id',
  PARTNER_APIS_EXPOSURE_CLIENT_SECRET: 'exposure-secret',
  PARTNER_APIS_EXPOSURE_SUBSCRIPTION_KEY: 'key-1',
  PARTNER_APIS_EXPOSURE_SUBSCRIPTION_KEY_SECONDARY: 'key-2',
};

function configurationError(read: () => unknown): ConfigurationError {
  try {
    read();
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error('expected a ConfigurationError');
}

describe('readServiceEnv', () => {
  it('reads the address and credentials of a service, trimmed, without unset dates', () => {
    const env = { ...liability, PARTNER_APIS_LIABILITY_CLIENT_ID: '  client-7f3a\n' };
    expect(readServiceEnv('LIABILITY', env)).toEqual({
      baseUrl: 'https://liability.example.com/v1/uat',
      credentials: { clientId: 'client-7f3a', clientSecret: 's3cr3t-value-9c1d' },
    });
  });

  it('reads the secret dates when they are set', () => {
    const env = {
      ...liability,
      PARTNER_APIS_LIABILITY_SECRET_CREATED_AT: '2026-01-15',
      PARTNER_APIS_LIABILITY_SECRET_EXPIRES_AT: '2027-01-15',
    };
    expect(readServiceEnv('LIABILITY', env).credentials).toMatchObject({
      secretCreatedAt: '2026-01-15',
      secretExpiresAt: '2027-01-15',
    });
  });

  it.each(Object.keys(liability))('names %s when it is missing or blank', (name) => {
    const missing = configurationError(() =>
      readServiceEnv('LIABILITY', { ...liability, [name]: undefined }),
    );
    expect(missing.option).toBe(name);
    expect(missing.message).toBe(`${name}: is not set`);
    const blank = configurationError(() =>
      readServiceEnv('LIABILITY', { ...liability, [name]: ' ' }),
    );
    expect(blank.option).toBe(name);
  });

  it('never shows a value in its messages', () => {
    const error = configurationError(() =>
      readServiceEnv('LIABILITY', { ...liability, PARTNER_APIS_LIABILITY_BASE_URL: undefined }),
    );
    expect(JSON.stringify(error) + String(error)).not.toContain('s3cr3t-value-9c1d');
  });

  it('reads the token URL and both subscription keys of an OAuth 2.0 service', () => {
    const env = { ...exposure, PARTNER_APIS_TOKEN_URL: 'https://auth.example.com/token' };
    expect(readServiceEnv('EXPOSURE', env, 'oauth2')).toEqual({
      baseUrl: 'https://portal.example.com',
      tokenUrl: 'https://auth.example.com/token',
      credentials: {
        clientId: 'exposure-id',
        clientSecret: 'exposure-secret',
        subscriptionKeys: { primary: 'key-1', secondary: 'key-2' },
      },
    });
  });

  it('reads an OAuth 2.0 service without a secondary key, which is optional', () => {
    const env = {
      ...exposure,
      PARTNER_APIS_TOKEN_URL: 'https://auth.example.com/token',
      PARTNER_APIS_EXPOSURE_SUBSCRIPTION_KEY_SECONDARY: undefined,
    };
    expect(readServiceEnv('EXPOSURE', env, 'oauth2').credentials.subscriptionKeys).toEqual({
      primary: 'key-1',
    });
  });

  it("prefers the service's own token URL over the shared one", () => {
    const env = {
      ...exposure,
      PARTNER_APIS_EXPOSURE_TOKEN_URL: 'https://own.example.com/token',
      PARTNER_APIS_TOKEN_URL: 'https://shared.example.com/token',
    };
    expect(readServiceEnv('EXPOSURE', env, 'oauth2').tokenUrl).toBe(
      'https://own.example.com/token',
    );
  });

  it('names both token URL variables when neither is set', () => {
    const error = configurationError(() => readServiceEnv('EXPOSURE', exposure, 'oauth2'));
    expect(error.option).toBe('PARTNER_APIS_EXPOSURE_TOKEN_URL');
    expect(error.message).toBe(
      'PARTNER_APIS_EXPOSURE_TOKEN_URL: is not set (nor PARTNER_APIS_TOKEN_URL)',
    );
  });

  it.each([
    ['token', 'PARTNER_APIS_MUSEUM_TOKEN', { token: 'tok-1' }],
    ['apiKey', 'PARTNER_APIS_MUSEUM_API_KEY', { apiKey: 'tok-1' }],
  ] as const)(
    'reads the %s of a service whose requests carry one',
    (scheme, variable, credentials) => {
      const env = { PARTNER_APIS_MUSEUM_BASE_URL: 'https://museum.test', [variable]: ' tok-1 ' };
      expect(readServiceEnv('MUSEUM', env, scheme)).toEqual({
        baseUrl: 'https://museum.test',
        credentials,
      });
      expect(() => readServiceEnv('MUSEUM', { PARTNER_APIS_MUSEUM_BASE_URL: 'x' }, scheme)).toThrow(
        `${variable}: is not set`,
      );
    },
  );

  it('refuses an env that is not an object', () => {
    const error = configurationError(() => readServiceEnv('APPROVALS', null as never));
    expect(error.option).toBe('env');
  });
});

describe('readEnvVariable and requireEnvVariable', () => {
  it('give the first variable set, or undefined / an error naming the first', () => {
    const env = { B: 'b', C: 'c' };
    expect(readEnvVariable(env, ['A', 'B', 'C'])).toBe('b');
    expect(readEnvVariable(env, 'A')).toBeUndefined();
    expect(requireEnvVariable(env, 'C')).toBe('c');
    expect(() => requireEnvVariable(env, 'A')).toThrow('A: is not set');
  });
});
