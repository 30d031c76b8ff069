import { ConfigurationError } from '@partner-apis/errors';
import { describe, expect, it } from 'vitest';
import { createExposureClient, fromEnv } from './index.js';

const env = {
  PARTNER_APIS_EXPOSURE_BASE_URL: 'https://api.example.com',
  PARTNER_APIS_TOKEN_URL: 'https://auth.example.com/login/connect/token',
  PARTNER_APIS_EXPOSURE_CLIENT_ID: 'client-1',
  PARTNER_APIS_EXPOSURE_CLIENT_SECRET: 'secret-1',
  PARTNER_APIS_EXPOSURE_SUBSCRIPTION_KEY: 'key-1',
  PARTNER_APIS_EXPOSURE_SUBSCRIPTION_KEY_SECONDARY: 'key-2',
};

describe('fromEnv', () => {
  it('reads the options of createExposureClient from PARTNER_APIS_EXPOSURE_*', () => {
    expect(fromEnv({ ...env, PARTNER_APIS_EXPOSURE_SECRET_CREATED_AT: '2026-01-15' })).toEqual({
      baseUrl: 'https://api.example.com',
      tokenUrl: 'https://auth.example.com/login/connect/token',
      credentials: {
        clientId: 'client-1',
        clientSecret: 'secret-1',
        secretCreatedAt: '2026-01-15',
        subscriptionKeys: { primary: 'key-1', secondary: 'key-2' },
      },
    });
    expect(() => createExposureClient(fromEnv(env))).not.toThrow();
  });

  it('prefers the service token URL over the shared one', () => {
    const own = 'https://auth.exposure.example.com/login/connect/token';
    expect(fromEnv({ ...env, PARTNER_APIS_EXPOSURE_TOKEN_URL: own }).tokenUrl).toBe(own);
  });

  it('names the missing variable', () => {
    expect(() => fromEnv({ ...env, PARTNER_APIS_EXPOSURE_CLIENT_SECRET: undefined })).toThrow(
      new ConfigurationError('PARTNER_APIS_EXPOSURE_CLIENT_SECRET', 'is not set'),
    );
    expect(() => fromEnv({ ...env, PARTNER_APIS_TOKEN_URL: ' ' })).toThrow(
      /^PARTNER_APIS_EXPOSURE_TOKEN_URL: is not set/,
    );
  });
});
