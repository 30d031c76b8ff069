import {
  SECRET_ENCODINGS,
  encodeSecret,
  hostile,
  startHostileUpstream,
  type HostileUpstream,
} from '@partner-apis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, emptyHome, startMcp } from './mcp.fixture.js';

// An upstream that echoes every credential it is sent, in every encoding a server may use:
// whatever it answers, a tool's result, a tool's error and the server's log show none of them.

const SECRET = 'mcp-s3cr3t+/=value';
const KEY = 'mcp-subscription-key-0042';
const TOKEN = 'mcp-access-token-7781';

let upstream: HostileUpstream;
let home: Awaited<ReturnType<typeof emptyHome>>;
beforeAll(async () => {
  upstream = await startHostileUpstream({});
  home = await emptyHome();
});
afterAll(async () => {
  await upstream?.close();
  await home?.remove();
});

/** Every way `texts` could hold one of the credentials. */
function leaks(...texts: string[]): string[] {
  const secrets = [SECRET, KEY, TOKEN, `Bearer ${TOKEN}`];
  const forms = secrets.flatMap((secret) => SECRET_ENCODINGS.map((e) => encodeSecret(secret, e)));
  return forms.filter((form) => texts.some((text) => text.includes(form)));
}

const env = () => ({
  PARTNER_APIS_APPROVALS_BASE_URL: upstream.url,
  PARTNER_APIS_APPROVALS_CLIENT_ID: 'mcp-client',
  PARTNER_APIS_APPROVALS_CLIENT_SECRET: SECRET,
  PARTNER_APIS_EXPOSURE_BASE_URL: upstream.url,
  PARTNER_APIS_EXPOSURE_TOKEN_URL: `${upstream.url}/token`,
  PARTNER_APIS_EXPOSURE_CLIENT_ID: 'mcp-client',
  PARTNER_APIS_EXPOSURE_CLIENT_SECRET: SECRET,
  PARTNER_APIS_EXPOSURE_SUBSCRIPTION_KEY: KEY,
});

describe.each([200, 401])('an upstream that echoes credentials with status %i', (status) => {
  it('reaches no tool result, tool error or log', async () => {
    upstream.setRoutes({
      '/approvals': hostile.echoSecrets({ status }),
      '/token': hostile.json({ access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 }),
      '/open/portal-api/exposure/locations': hostile.echoSecrets({ status }),
    });
    const session = await startMcp('stdio', ['--debug'], home.dir, env());
    try {
      const approvals = await callTool(session, 'approvals_approvals_list', {
        employeeNumber: '100234',
      });
      const locations = await callTool(session, 'exposure_locations_list', { maxItems: 5 });
      // The echo reached the client: it is the answer, or the message of its error.
      expect(approvals.text).toContain('refused');
      expect(approvals.isError).toBe(status !== 200);
      expect(locations.isError).toBe(true);
      const sent = upstream.requests.filter((r) => r.path !== '/token');
      expect(sent.some((r) => r.headers.client_secret === SECRET)).toBe(true);
      expect(sent.some((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
      expect(leaks(approvals.text, locations.text, session.stderr())).toEqual([]);
      expect(approvals.text).toContain('[redacted]');
    } finally {
      await session.close();
    }
  });
});
