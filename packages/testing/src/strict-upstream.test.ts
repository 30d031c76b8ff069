import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  STRICT_UPSTREAM_FACTS,
  startStrictUpstream,
  type StrictUpstream,
} from './strict-upstream.js';

let upstream: StrictUpstream;
beforeAll(async () => {
  upstream = await startStrictUpstream();
});
afterAll(() => upstream.close());

async function token(scope: string) {
  const { clientId, clientSecret, subscriptionKeys } = upstream.credentials.exposure;
  const response = await fetch(upstream.urls.tokenUrl, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      'ocp-apim-subscription-key': subscriptionKeys.primary,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function locations(accessToken: string, query: string) {
  const response = await fetch(
    `${upstream.urls.exposure}/open/portal-api/exposure/locations?${query}`,
    {
      headers: {
        authorization: `Bearer ${accessToken}`,
        'ocp-apim-subscription-key': upstream.credentials.exposure.subscriptionKeys.primary,
      },
    },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('startStrictUpstream', () => {
  it('refuses scopes joined by a space with invalid_scope and grants them joined by a comma', async () => {
    expect((await token('Portal.Api Portal.Api.Exposure')).body.error).toBe('invalid_scope');
    const granted = await token('Portal.Api,Portal.Api.Exposure');
    expect(granted.status).toBe(200);
    expect(granted.body.scope).toBe('Portal.Api,Portal.Api.Exposure');
  });

  it('answers reads in an envelope, paged by a one-based page index, and refuses page 0 in its own error body', async () => {
    const { body } = await token('Portal.Api,Portal.Api.Exposure');
    const accessToken = String(body.access_token);
    const first = await locations(accessToken, 'limit=2&offset=1');
    const second = await locations(accessToken, 'limit=2&offset=2');
    const items = (page: { body: Record<string, unknown> }) =>
      (page.body[STRICT_UPSTREAM_FACTS.recordsProperty] as { locationId: string }[]).map(
        (r) => r.locationId,
      );
    expect(items(first)).toEqual(['LOC-0000001', 'LOC-0000002']);
    expect(items(second)).toEqual(['LOC-0000003', 'LOC-0000004']);
    const refused = await locations(accessToken, 'limit=2&offset=0');
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body)).toEqual([...STRICT_UPSTREAM_FACTS.errorBodyFields]);
  });

  it('caps a page below the limit asked for', async () => {
    const { body } = await token('Portal.Api,Portal.Api.Exposure');
    const page = await locations(String(body.access_token), 'limit=1024&offset=1');
    expect(page.body[STRICT_UPSTREAM_FACTS.recordsProperty]).toHaveLength(
      STRICT_UPSTREAM_FACTS.pageCap,
    );
  });

  it('refuses a read without the token', async () => {
    expect((await locations('not-a-token', 'limit=1')).status).toBe(401);
  });

  it('gives approval items a field the spec does not name', async () => {
    const { clientId, clientSecret } = upstream.credentials.approvals;
    const response = await fetch(
      `${upstream.urls.approvals}/approvals?employeeNumber=${upstream.fixtures.employeeNumber}`,
      {
        headers: { client_id: clientId, client_secret: clientSecret },
      },
    );
    const body = (await response.json()) as { requisitionApprovals: Record<string, unknown>[] };
    expect(body.requisitionApprovals[0]).toHaveProperty(STRICT_UPSTREAM_FACTS.extraApprovalField);
  });
});
