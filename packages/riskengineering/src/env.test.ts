import { ConfigurationError } from '@partner-apis/errors';
import { describe, expect, it } from 'vitest';
import { createRiskEngineeringClient, fromEnv } from './index.js';

const env = {
  PARTNER_APIS_RISKENGINEERING_BASE_URL: 'https://api.example.com',
  PARTNER_APIS_RISKENGINEERING_TOKEN_URL: 'https://auth.example.com/login/connect/token',
  PARTNER_APIS_RISKENGINEERING_CLIENT_ID: 'client-2',
  PARTNER_APIS_RISKENGINEERING_CLIENT_SECRET: 'secret-2',
  PARTNER_APIS_RISKENGINEERING_SUBSCRIPTION_KEY: 'key-1',
  PARTNER_APIS_RISKENGINEERING_SUBSCRIPTION_KEY_SECONDARY: 'key-2',
  PARTNER_APIS_RISKENGINEERING_SECRET_EXPIRES_AT: '2027-03-01',
};

describe('fromEnv', () => {
  it('reads the options of createRiskEngineeringClient from PARTNER_APIS_RISKENGINEERING_*', () => {
    expect(fromEnv(env)).toEqual({
      baseUrl: 'https://api.example.com',
      tokenUrl: 'https://auth.example.com/login/connect/token',
      credentials: {
        clientId: 'client-2',
        clientSecret: 'secret-2',
        secretExpiresAt: '2027-03-01',
        subscriptionKeys: { primary: 'key-1', secondary: 'key-2' },
      },
    });
    expect(() => createRiskEngineeringClient(fromEnv(env))).not.toThrow();
  });

  it('falls back to PARTNER_APIS_TOKEN_URL and names a missing variable', () => {
    const shared = 'https://auth.uat.example.com/login/connect/token';
    const withShared = {
      ...env,
      PARTNER_APIS_RISKENGINEERING_TOKEN_URL: undefined,
      PARTNER_APIS_TOKEN_URL: shared,
    };
    expect(fromEnv(withShared).tokenUrl).toBe(shared);
    expect(() => fromEnv({ ...env, PARTNER_APIS_RISKENGINEERING_SUBSCRIPTION_KEY: '' })).toThrow(
      new ConfigurationError('PARTNER_APIS_RISKENGINEERING_SUBSCRIPTION_KEY', 'is not set'),
    );
  });
});
