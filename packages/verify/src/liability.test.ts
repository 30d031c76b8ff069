import { describe, expect, it } from 'vitest';
import { startHostileUpstream } from '@partner-apis/testing';
import { isTestAddress } from './liability.js';
import { verifyUpstream } from './verify.js';

describe('isTestAddress', () => {
  it.each([
    'http://127.0.0.1:8080/liability/v1/sandbox',
    'http://localhost:3000',
    'http://[::1]:3000',
    'https://liability.partner-platform.invalid/v1/uat',
    'https://api.uat.partner-platform.invalid',
    'https://liability-staging.example/v1',
    'https://mock.partner-platform.invalid/liability/v1',
  ])('takes %s for a test environment', (url) => {
    expect(isTestAddress(url)).toBe(true);
  });

  it.each([
    'https://liability.partner-platform.invalid/v1',
    'https://api.partner-platform.invalid',
    'not a url',
  ])('takes %s for production', (url) => {
    expect(isTestAddress(url)).toBe(false);
  });
});

describe('liability writes', () => {
  it('sends no write unless allowed, and says so', async () => {
    const upstream = await startHostileUpstream({
      '/quotes': (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      },
    });
    try {
      const { findings } = await verifyUpstream({
        liability: {
          baseUrl: upstream.url,
          credentials: { clientId: 'c', clientSecret: 'secret-1' },
          rateLimit: 'gold',
        },
      });
      expect(upstream.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
      expect(findings).toContainEqual(
        expect.objectContaining({
          spec: 'liability',
          pointer: '/components/schemas/SellerCreated/x-upstream-gap',
          status: 'skipped',
          evidence: 'writes are not allowed (allowWrites), so no seller was created',
        }),
      );
    } finally {
      await upstream.close();
    }
  });
});
