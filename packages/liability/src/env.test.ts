import { ConfigurationError } from '@partner-apis/errors';
import { startSandbox } from '@partner-apis/sandbox';
import { describe, expect, it, vi } from 'vitest';
import { createLiabilityClient, fromEnv } from './index.js';

const env = {
  PARTNER_APIS_LIABILITY_BASE_URL: 'https://liability.example.com/v1/uat',
  PARTNER_APIS_LIABILITY_CLIENT_ID: 'client-7f3a',
  PARTNER_APIS_LIABILITY_CLIENT_SECRET: 's3cr3t-value-9c1d',
  PARTNER_APIS_LIABILITY_SECRET_CREATED_AT: '2026-01-15',
};

describe('fromEnv', () => {
  it('reads the PARTNER_APIS_LIABILITY_* variables into client options', () => {
    expect(fromEnv(env)).toEqual({
      baseUrl: 'https://liability.example.com/v1/uat',
      credentials: {
        clientId: 'client-7f3a',
        clientSecret: 's3cr3t-value-9c1d',
        secretCreatedAt: '2026-01-15',
      },
    });
  });

  it.each([
    'PARTNER_APIS_LIABILITY_BASE_URL',
    'PARTNER_APIS_LIABILITY_CLIENT_ID',
    'PARTNER_APIS_LIABILITY_CLIENT_SECRET',
  ])('names %s when it is missing', (name) => {
    const call = () => fromEnv({ ...env, [name]: undefined });
    expect(call).toThrow(ConfigurationError);
    expect(call).toThrow(`${name}: is not set`);
  });

  it('reads process.env by default', () => {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    try {
      expect(fromEnv()).toEqual(fromEnv(env));
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('gives options a working client is made of', async () => {
    const sb = await startSandbox();
    try {
      const client = createLiabilityClient(
        fromEnv({
          PARTNER_APIS_LIABILITY_BASE_URL: sb.urls.liability,
          PARTNER_APIS_LIABILITY_CLIENT_ID: sb.credentials.liability.clientId,
          PARTNER_APIS_LIABILITY_CLIENT_SECRET: sb.credentials.liability.clientSecret,
        }),
      );
      await expect(client.quotes.search()).resolves.toEqual([]);
    } finally {
      await sb.close();
    }
  });
});
