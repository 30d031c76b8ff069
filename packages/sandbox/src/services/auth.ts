import { parseBasic } from '../auth/authorization-header.js';
import { carriesActiveKey, portalClient, type SandboxContext } from '../context.js';
import { json, oauthErrorReply } from '../http/reply.js';
import { openapiDocument } from '../generated/auth.document.js';
import type { ServiceDefinition } from './service.js';
import type { IncomingHttpHeaders } from 'node:http';

/** The scopes each portal client may be granted: `Portal.Api` and its own service's scope. */
const GRANTABLE_SCOPES = {
  exposure: new Set(['Portal.Api', 'Portal.Api.Exposure']),
  riskEngineering: new Set(['Portal.Api', 'Portal.Api.RiskEngineering']),
} as const;

function clientOf(headers: IncomingHttpHeaders, context: SandboxContext) {
  const basic = parseBasic(headers.authorization);
  if (basic === undefined) return undefined;
  const client = portalClient(context, basic.id);
  if (client === undefined || client.credentials.clientSecret !== basic.secret) return undefined;
  return client;
}

/** The token endpoint (`specs/auth`): OAuth 2.0 client credentials for the portal services. */
export const authService: ServiceDefinition = {
  name: 'auth',
  basePath: '/auth',
  document: openapiDocument,
  errorStyle: 'oauth',
  guard(headers, context, operation, query) {
    const client = clientOf(headers, context);
    if (client === undefined) {
      // One answer for every credential failure, so it does not tell which part was wrong.
      return oauthErrorReply(401, 'invalid_client', 'Client authentication failed.', {
        'www-authenticate': 'Basic realm="token"',
      });
    }
    if (carriesActiveKey(context, client.credentials, operation, headers, query)) return undefined;
    // How the upstream refuses a key is not shown; the only 401 body the spec of this endpoint
    // allows is RFC 6749's, so a refused key is an `invalid_client` like any refused credential.
    return oauthErrorReply(
      401,
      'invalid_client',
      'Access denied: the subscription key is missing, unknown or revoked.',
      { 'www-authenticate': 'Basic realm="token"' },
    );
  },
  handlers: {
    requestToken(request, context) {
      const client = clientOf(request.headers, context)!;
      const form = request.body as { scope: string[]; client_secret?: unknown };
      if (form.client_secret !== undefined) {
        // RFC 6749 §2.3: a client uses one authentication method per request.
        return oauthErrorReply(
          400,
          'invalid_request',
          'The client authenticated twice: Basic and client_secret in the body; use Basic only.',
        );
      }
      const { scope } = form;
      const grantable = GRANTABLE_SCOPES[client.service];
      const refused = scope.find((s) => !grantable.has(s));
      if (refused !== undefined) {
        return oauthErrorReply(400, 'invalid_scope', `The client may not be granted ${refused}.`);
      }
      const { token, expiresIn } = context.tokens.issue(client.credentials.clientId, scope);
      return json(
        200,
        {
          access_token: token,
          token_type: 'Bearer',
          expires_in: expiresIn,
          scope: scope.join(' '),
        },
        { 'cache-control': 'no-store', pragma: 'no-cache' },
      );
    },
  },
};
