import { ConfigurationError } from '@partner-apis/errors';
import { startSandbox } from '@partner-apis/sandbox';
import { describe, expect, it, vi } from 'vitest';
import { createApprovalsClient, fromEnv } from './index.js';

const env = {
  PARTNER_APIS_APPROVALS_BASE_URL: 'https://approvals.example.com/v1',
  PARTNER_APIS_APPROVALS_CLIENT_ID: 'client-7f3a',
  PARTNER_APIS_APPROVALS_CLIENT_SECRET: 's3cr3t-value-9c1d',
};

describe('fromEnv', () => {
  it('reads the PARTNER_APIS_APPROVALS_* variables into client options', () => {
    expect(
      fromEnv({
        ...env,
        PARTNER_APIS_APPROVALS_SECRET_EXPIRES_AT: '2027-01-15',
        PARTNER_APIS_APPROVALS_TIER: 'silver',
      }),
    ).toEqual({
      baseUrl: 'https://approvals.example.com/v1',
      credentials: {
        clientId: 'client-7f3a',
        clientSecret: 's3cr3t-value-9c1d',
        secretExpiresAt: '2027-01-15',
      },
      tier: 'silver',
    });
  });

  it.each([
    ['Gold', 'gold'],
    ['bronze', 'bronze'],
    ['2.5', { requestsPerSecond: 2.5 }],
  ] as const)('reads the tier %s as %j', (value, tier) => {
    expect(fromEnv({ ...env, PARTNER_APIS_APPROVALS_TIER: value }).tier).toEqual(tier);
  });

  it('leaves the tier out when the variable is not set', () => {
    expect(fromEnv(env)).not.toHaveProperty('tier');
  });

  it.each(['platinum', '0', '-1', 'NaN'])('names PARTNER_APIS_APPROVALS_TIER for %s', (value) => {
    const call = () => fromEnv({ ...env, PARTNER_APIS_APPROVALS_TIER: value });
    expect(call).toThrow(ConfigurationError);
    expect(call).toThrow(`PARTNER_APIS_APPROVALS_TIER: must be bronze, silver, gold`);
  });

  it.each(Object.keys(env))('names %s when it is missing', (name) => {
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
      const client = createApprovalsClient(
        fromEnv({
          PARTNER_APIS_APPROVALS_BASE_URL: sb.urls.approvals,
          PARTNER_APIS_APPROVALS_CLIENT_ID: sb.credentials.approvals.clientId,
          PARTNER_APIS_APPROVALS_CLIENT_SECRET: sb.credentials.approvals.clientSecret,
          PARTNER_APIS_APPROVALS_TIER: sb.credentials.approvals.tier,
        }),
      );
      const result = await client.approvals.list(sb.fixtures.employeeWithApprovals);
      expect(result.employeeNumber).toBe(sb.fixtures.employeeWithApprovals);
    } finally {
      await sb.close();
    }
  });
});
