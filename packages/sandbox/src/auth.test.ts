import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  EXPOSURE_SCOPES,
  GRADINGS_PATH,
  LOCATIONS_PATH,
  basic,
  getApprovals,
  liabilityHeaders,
  portalGet,
  requestToken,
  tokenOf,
} from './sandbox.fixture.js';
import { startSandbox, type Sandbox } from './index.js';

const EXPOSURE_FORM = `grant_type=client_credentials&scope=${encodeURIComponent(EXPOSURE_SCOPES)}`;

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => {
  sb.restoreKeys();
  sb.setTokenLifetime(3600);
  sb.resetStats();
});
afterEach(() => expect(sb.stats().responseViolations).toEqual([]));

async function expectAuthenticationError(response: Response, sentSecret?: string) {
  expect(response.status).toBe(401);
  const text = await response.text();
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body.code).toBe('authentication_error');
  expect(body.correlationId).toMatch(/^[0-9a-f-]{36}$/);
  if (sentSecret !== undefined) expect(text).not.toContain(sentSecret);
}

describe('token endpoint', () => {
  it('issues a bearer token with the requested scopes, an expiry and no-store caching', async () => {
    const response = await requestToken(sb, 'exposure', EXPOSURE_FORM);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      access_token: expect.stringMatching(/^[\w-]{40,}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'Portal.Api Portal.Api.Exposure',
    });
    expect(sb.stats().routes['auth.requestToken']?.tokenIssues).toBe(1);
  });

  it('accepts the secondary subscription key as well as the primary', async () => {
    const response = await requestToken(
      sb,
      'riskEngineering',
      'grant_type=client_credentials&scope=Portal.Api',
      {
        'ocp-apim-subscription-key': sb.credentials.riskEngineering.subscriptionKeys.secondary,
      },
    );
    expect(response.status).toBe(200);
  });

  it.each([
    ['a wrong secret', () => ({ authorization: basic(sb.credentials.exposure.clientId, 'wrong') })],
    ['no Basic header', () => ({ authorization: '' })],
  ])('answers 401 invalid_client (RFC 6749 §5.2) for %s', async (_, overrides) => {
    const response = await requestToken(sb, 'exposure', EXPOSURE_FORM, overrides());
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      error: 'invalid_client',
      error_description: expect.any(String),
    });
    expect(text).not.toContain(sb.credentials.exposure.clientSecret);
  });

  it.each([
    [
      'a key of the other service',
      () => ({
        'ocp-apim-subscription-key': sb.credentials.riskEngineering.subscriptionKeys.primary,
      }),
    ],
    ['no subscription key', () => ({ 'ocp-apim-subscription-key': '' })],
    [
      'a revoked key',
      () => {
        sb.revokeKey('exposure', 'primary');
        return {};
      },
    ],
  ])('answers 401 invalid_client, as its spec allows, for %s', async (_, overrides) => {
    try {
      const response = await requestToken(sb, 'exposure', EXPOSURE_FORM, overrides());
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: 'invalid_client',
        error_description: expect.stringContaining('subscription key'),
      });
      expect(sb.stats().responseViolations).toEqual([]);
      expect(sb.stats().routes['auth.requestToken']?.statuses).toEqual({ 401: 1 });
    } finally {
      sb.restoreKeys();
    }
  });

  it('answers a token request with a JSON body 400 invalid_request (RFC 6749 has no 415)', async () => {
    const response = await requestToken(
      sb,
      'exposure',
      JSON.stringify({ grant_type: 'client_credentials', scope: EXPOSURE_SCOPES }),
      { 'content-type': 'application/json' },
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('refuses client_secret in the form beside Basic (RFC 6749 §2.3: one method)', async () => {
    const secret = sb.credentials.exposure.clientSecret;
    const response = await requestToken(
      sb,
      'exposure',
      `${EXPOSURE_FORM}&client_secret=${encodeURIComponent(secret)}`,
    );
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: 'invalid_request' });
    expect(text).not.toContain(secret);
  });

  it.each([
    [
      'a scope of the other service',
      'grant_type=client_credentials&scope=Portal.Api%20Portal.Api.RiskEngineering',
      'invalid_scope',
    ],
    ['an unknown scope', 'grant_type=client_credentials&scope=Portal.Admin', 'invalid_scope'],
    ['another grant type', 'grant_type=password&scope=Portal.Api', 'unsupported_grant_type'],
    ['no grant type', 'scope=Portal.Api', 'invalid_request'],
  ])('answers 400 with the RFC 6749 error for %s', async (_, form, error) => {
    const response = await requestToken(sb, 'exposure', form);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe(error);
  });
});

describe('exposure and risk engineering data requests', () => {
  it('open the service the token was issued for, and not the other one', async () => {
    const exposureToken = await tokenOf(sb, 'exposure');
    const exposureKey = sb.credentials.exposure.subscriptionKeys.primary;
    const riskKey = sb.credentials.riskEngineering.subscriptionKeys.primary;
    const ok = await fetch(`${sb.urls.exposure}${LOCATIONS_PATH}?limit=1`, {
      headers: {
        authorization: `Bearer ${exposureToken}`,
        'ocp-apim-subscription-key': exposureKey,
      },
    });
    expect(ok.status).toBe(200);
    const refused = await fetch(`${sb.urls.riskEngineering}${GRADINGS_PATH}?limit=1`, {
      headers: { authorization: `Bearer ${exposureToken}`, 'ocp-apim-subscription-key': riskKey },
    });
    await expectAuthenticationError(refused);
    expect(sb.stats().routes['riskEngineering.listGradings']?.unauthorized).toBe(1);
  });

  it('refuse a missing, unknown or expired token', async () => {
    await expectAuthenticationError(
      await portalGet(sb, 'exposure', LOCATIONS_PATH, { authorization: '' }),
    );
    await expectAuthenticationError(
      await portalGet(sb, 'exposure', LOCATIONS_PATH, { authorization: 'Bearer not-a-token' }),
    );
    const token = await tokenOf(sb, 'exposure');
    sb.expireTokens();
    await expectAuthenticationError(
      await portalGet(sb, 'exposure', LOCATIONS_PATH, { authorization: `Bearer ${token}` }),
    );
  });

  it('refuse a token once its lifetime has passed', async () => {
    sb.setTokenLifetime(1);
    const response = await requestToken(sb, 'exposure', EXPOSURE_FORM);
    const { access_token: token, expires_in: expiresIn } = (await response.json()) as {
      access_token: string;
      expires_in: number;
    };
    expect(expiresIn).toBe(1);
    const headers = { authorization: `Bearer ${token}` };
    expect((await portalGet(sb, 'exposure', LOCATIONS_PATH, headers)).status).toBe(200);
    await delay(1100);
    await expectAuthenticationError(await portalGet(sb, 'exposure', LOCATIONS_PATH, headers));
  });

  it('need the primary or the secondary key of the service, and stop taking a revoked one', async () => {
    const { primary, secondary } = sb.credentials.exposure.subscriptionKeys;
    await expectAuthenticationError(
      await portalGet(sb, 'exposure', LOCATIONS_PATH, { 'ocp-apim-subscription-key': '' }),
    );
    await expectAuthenticationError(
      await portalGet(sb, 'exposure', LOCATIONS_PATH, {
        'ocp-apim-subscription-key': sb.credentials.riskEngineering.subscriptionKeys.primary,
      }),
    );
    expect(
      (await portalGet(sb, 'exposure', LOCATIONS_PATH, { 'ocp-apim-subscription-key': secondary }))
        .status,
    ).toBe(200);

    const token = await tokenOf(sb, 'exposure');
    sb.revokeKey('exposure', 'primary');
    const withKey = (key: string) =>
      fetch(`${sb.urls.exposure}${LOCATIONS_PATH}`, {
        headers: { authorization: `Bearer ${token}`, 'ocp-apim-subscription-key': key },
      });
    await expectAuthenticationError(await withKey(primary));
    expect((await withKey(secondary)).status).toBe(200);
    sb.restoreKeys();
    expect((await withKey(primary)).status).toBe(200);
  });
});

describe('liability and approvals credentials', () => {
  it('liability takes its Basic pair and refuses any other', async () => {
    const ok = await fetch(`${sb.urls.liability}/quotes`, { headers: liabilityHeaders(sb) });
    expect(ok.status).toBe(200);
    const wrong = await fetch(`${sb.urls.liability}/quotes`, {
      headers: liabilityHeaders(sb, {
        authorization: basic(sb.credentials.liability.clientId, 'wrong-secret'),
      }),
    });
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic/);
    await expectAuthenticationError(wrong, 'wrong-secret');
    await expectAuthenticationError(
      await fetch(`${sb.urls.liability}/quotes`, {
        headers: liabilityHeaders(sb, { authorization: '' }),
      }),
    );
  });

  it('approvals takes its client_id and client_secret headers and refuses any other', async () => {
    expect((await getApprovals(sb, '100234')).status).toBe(200);
    await expectAuthenticationError(
      await getApprovals(sb, '100234', { client_secret: 'wrong-secret' }),
      'wrong-secret',
    );
    await expectAuthenticationError(
      await getApprovals(sb, '100234', { client_id: 'someone-else' }),
    );
  });

  it('uses the credentials a caller gives and generates the rest', async () => {
    const own = await startSandbox({
      credentials: {
        liability: { clientId: 'my-client', clientSecret: 'my-secret' },
        approvals: { tier: 'silver' },
      },
    });
    try {
      expect(own.credentials.liability).toEqual({
        clientId: 'my-client',
        clientSecret: 'my-secret',
      });
      expect(own.credentials.approvals.tier).toBe('silver');
      expect(own.credentials.approvals.clientSecret).not.toBe(
        sb.credentials.approvals.clientSecret,
      );
      const response = await fetch(`${own.urls.liability}/quotes`, {
        headers: liabilityHeaders(own, { authorization: basic('my-client', 'my-secret') }),
      });
      expect(response.status).toBe(200);
    } finally {
      await own.close();
    }
  });
});
