import { ConfigurationError } from '@partner-apis/errors';
import type { AuthScheme } from './auth-scheme.js';
import {
  basicAuthorization,
  requireCredential,
  requireHeaderCredential,
  secretDatesOf,
  type ClientCredentials,
} from './credentials.js';

/**
 * HTTP Basic authentication, as the liability service asks for: `Authorization: Basic` with
 * the base64 of `client_id:client_secret` (RFC 7617). The header value is built once.
 *
 * @example
 * const auth = basicAuth({ clientId: 'my-client', clientSecret: process.env.SECRET ?? '' });
 */
export function basicAuth(credentials: ClientCredentials): AuthScheme {
  const clientId = requireCredential('auth.clientId', credentials.clientId);
  const clientSecret = requireCredential('auth.clientSecret', credentials.clientSecret);
  if (clientId.includes(':')) {
    // RFC 7617 §2: the user-id of Basic authentication cannot contain a colon.
    throw new ConfigurationError('auth.clientId', 'must not contain ":" for Basic authentication');
  }
  const authorization = basicAuthorization(clientId, clientSecret, 'plain');
  const secrets = [clientSecret, authorization];
  return {
    secretHeaderNames: ['authorization'],
    clientId,
    secretDates: secretDatesOf(credentials),
    secretValues: () => secrets,
    authorize(headers) {
      headers.set('authorization', authorization);
    },
  };
}

/**
 * The `client_id` and `client_secret` request headers, as the procurement approvals service
 * asks for.
 *
 * @example
 * const auth = clientIdHeaders({ clientId: 'my-client', clientSecret: process.env.SECRET ?? '' });
 */
export function clientIdHeaders(credentials: ClientCredentials): AuthScheme {
  const clientId = requireHeaderCredential('auth.clientId', credentials.clientId);
  const clientSecret = requireHeaderCredential('auth.clientSecret', credentials.clientSecret);
  return {
    secretHeaderNames: ['client_id', 'client_secret'],
    clientId,
    secretDates: secretDatesOf(credentials),
    secretValues: () => [clientSecret],
    authorize(headers) {
      headers.set('client_id', clientId);
      headers.set('client_secret', clientSecret);
    },
  };
}
