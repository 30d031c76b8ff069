import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  SECRET_ENCODINGS,
  credentialsOf,
  encodeSecret,
  hostile,
  startHostileUpstream,
  type HostileRequest,
  type HostileUpstream,
} from '@partner-apis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED } from './redact.js';
import { WRONG_KEY } from './token.js';
import type { Finding } from './types.js';
import { verifyUpstream } from './verify.js';

const credentials = {
  clientId: 'hostile-client',
  clientSecret: `s3cret/${randomBytes(12).toString('base64')}`,
  subscriptionKeys: { primary: randomBytes(16).toString('hex') },
};
const liability = {
  clientId: 'hostile-liability',
  clientSecret: `l+ab/${randomBytes(12).toString('base64')}`,
};
const approvals = {
  clientId: 'hostile-approvals',
  clientSecret: `a p&${randomBytes(12).toString('hex')}`,
};

/** Records whose field names are the request's credentials, in every encoding. */
function echoedRecords(request: HostileRequest): Record<string, number>[] {
  const names = credentialsOf(request.headers, request.body).flatMap((secret) =>
    SECRET_ENCODINGS.map((encoding) => encodeSecret(secret, encoding)),
  );
  return [Object.fromEntries(names.map((name) => [name, 1]))];
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const tokens = new Set<string>();
let upstream: HostileUpstream;
let findings: Finding[];
beforeAll(async () => {
  upstream = await startHostileUpstream({
    '/token': (request, response) => {
      const valid =
        request.headers['ocp-apim-subscription-key'] === credentials.subscriptionKeys.primary &&
        request.body.includes('grant_type=client_credentials');
      if (!valid) return hostile.echoSecrets({ status: 401, shape: 'oauth' })(request, response);
      const token = randomBytes(24).toString('base64url');
      tokens.add(token);
      json(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 60 });
    },
    '/open/portal-api/exposure/locations': (request, response) => {
      const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
      if (!tokens.has(token) || request.query.has('modifiedSince')) {
        return hostile.echoSecrets({ status: 401 })(request, response);
      }
      json(response, 200, echoedRecords(request));
    },
    '/quotes': (request, response) => json(response, 200, echoedRecords(request)),
    '/quotes/QTE-VERIFY-UNKNOWN': hostile.echoSecrets({ status: 404 }),
    '/approvals': (request, response) => {
      if (!request.query.has('employeeNumber'))
        return hostile.echoSecrets({ status: 400 })(request, response);
      json(response, 200, { employeeNumber: '1', requisitionApprovals: echoedRecords(request) });
    },
  });
  ({ findings } = await verifyUpstream({
    exposure: {
      baseUrl: upstream.url,
      tokenUrl: `${upstream.url}/token`,
      credentials,
      rateLimit: 'gold',
    },
    liability: { baseUrl: upstream.url, credentials: liability, rateLimit: 'gold' },
    approvals: { baseUrl: upstream.url, credentials: approvals, tier: 'gold', employeeNumber: '1' },
  }));
});
afterAll(() => upstream.close());

describe('an upstream that echoes every credential it is sent', () => {
  it('echoes them into what the findings report (so the check below can fail)', () => {
    expect(JSON.stringify(findings)).toContain(REDACTED);
  });

  it('never has a credential or token in a finding, in any encoding', () => {
    const text = JSON.stringify(findings);
    const sent = new Set(
      upstream.requests.flatMap((request) => credentialsOf(request.headers, request.body)),
    );
    // The key made up to see whether a server reads the header is no secret.
    sent.delete(WRONG_KEY);
    expect(sent.size).toBeGreaterThan(6);
    for (const secret of sent) {
      for (const encoding of SECRET_ENCODINGS) {
        expect(text, `${encoding} of a credential`).not.toContain(encodeSecret(secret, encoding));
      }
    }
  });
});
