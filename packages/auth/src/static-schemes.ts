import { ConfigurationError } from '@partner-apis/errors';
import type { AuthScheme } from './auth-scheme.js';
import { keyPlacement, placeKey, type KeyPlacement } from './key-placement.js';
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

/**
 * A bearer token (RFC 6750), as an `http` security scheme with `scheme: bearer` asks for:
 * `Authorization: Bearer <token>`. A function is called before every attempt, so a token it
 * renews elsewhere is always the current one.
 *
 * @example
 * const auth = bearerAuth(() => process.env.API_TOKEN ?? '');
 */
export function bearerAuth(token: string | (() => string | Promise<string>)): AuthScheme {
  const current = async () =>
    requireHeaderCredential('auth.token', typeof token === 'function' ? await token() : token);
  if (typeof token !== 'function') requireHeaderCredential('auth.token', token);
  let last: string | undefined;
  return {
    secretHeaderNames: ['authorization'],
    secretValues: () => (last === undefined ? [] : [last]),
    async authorize(headers) {
      last = await current();
      headers.set('authorization', `Bearer ${last}`);
    },
  };
}

/** One API key and where it goes, as an `apiKey` security scheme says. */
export interface ApiKey extends KeyPlacement {
  readonly value: string;
}

/**
 * API keys in a header, the query or a cookie, as the spec's `apiKey` security schemes say. A
 * key in the query is added to the URL each attempt sends, never to the one messages, events
 * and logs show.
 *
 * @example
 * const auth = apiKeyAuth([{ in: 'query', name: 'api_key', value: process.env.API_KEY ?? '' }]);
 */
export function apiKeyAuth(keys: readonly ApiKey[]): AuthScheme {
  if (!Array.isArray(keys) || keys.length === 0) {
    throw new ConfigurationError('auth.keys', 'must name at least one API key');
  }
  const placed = keys.map((key, i) => ({
    ...keyPlacement(`auth.keys[${i}]`, key),
    value: requireHeaderCredential(`auth.keys[${i}].value`, key.value),
  }));
  return {
    secretHeaderNames: placed.flatMap((key) => (key.in === 'header' ? [key.name] : [])),
    secretValues: () => placed.map((key) => key.value),
    authorize(headers) {
      for (const key of placed) if (key.in !== 'query') placeKey(key, key.value, headers, []);
    },
    queryParameters: () =>
      placed.flatMap((key) => (key.in === 'query' ? [[key.name, key.value] as const] : [])),
  };
}
