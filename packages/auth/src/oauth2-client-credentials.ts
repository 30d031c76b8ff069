import {
  ConfigurationError,
  TokenError,
  apiErrorFromResponse,
  redactUrl,
} from '@partner-apis/errors';
import type { AuthContext, AuthScheme, TokenRefreshReason } from './auth-scheme.js';
import {
  basicAuthorization,
  isHeaderSafe,
  requireCredential,
  requireHeaderCredential,
  secretDatesOf,
  type ClientCredentials,
} from './credentials.js';
import { requestToken as tokenOperation, securitySchemes } from './generated/operations.js';
import { keyPlacement, placeKey, type KeyPlacement } from './key-placement.js';
import { parseSecureUrl } from './secure-url.js';
import { tokenCacheKey } from './token-cache-key.js';
import { sharedTokenCache, type CachedToken, type TokenCache } from './token-cache.js';
import {
  parseTokenErrorBody,
  parseTokenResponse,
  type Scope,
  type TokenResponse,
} from './token-response.js';

/**
 * Where the token request carries the subscription key: the token spec's `apiKey` security
 * scheme (a header, the query or a cookie, and its name).
 */
export const DEFAULT_TOKEN_REQUEST_KEY: KeyPlacement = securitySchemes.subscriptionKey;
/**
 * What joins several scopes in the token request's `scope` form field: the separator of the
 * field's OpenAPI encoding in the token spec (`spaceDelimited` is a space, RFC 6749 §3.3).
 */
export const DEFAULT_SCOPE_SEPARATOR: string = tokenOperation.body.separators.scope;
/** A 2xx, as `Response.ok` tells it. */
const isOk = (status: number) => status >= 200 && status < 300;

/** The lifetime assumed when a token response has no `expires_in`, in seconds. */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;

/** Options of `oauth2ClientCredentials`. */
export interface OAuth2ClientCredentialsOptions extends ClientCredentials {
  /** The token endpoint, e.g. `https://auth.example.com/login/connect/token`. */
  tokenUrl: string;
  /** The scopes to request, e.g. `['Portal.Api', 'Portal.Api.Exposure']`. */
  scopes: readonly Scope[];
  /** Joins several scopes in the form field; the token spec's encoding of `scope` by default. */
  scopeSeparator?: string | undefined;
  /** The subscription key pair; the secondary takes over when the primary is refused. */
  subscriptionKeys: { primary: string; secondary?: string | undefined };
  /**
   * Where data requests carry the subscription key: a header, the query or a cookie (the
   * service spec's `apiKey` scheme); the token request's place by default. A key in the query
   * never reaches a message, a log or a span.
   */
  subscriptionKey?: KeyPlacement | undefined;
  /** Where the token request carries the subscription key; the token spec's by default. */
  tokenRequestKey?: KeyPlacement | undefined;
  /** The lifetime assumed when the response has no `expires_in`; 3600 seconds by default. */
  defaultLifetimeSeconds?: number | undefined;
  /**
   * How long before expiry a token is refreshed, in seconds. By default the larger of 2 minutes
   * and 10 % of the lifetime; never more than half the lifetime.
   */
  refreshMarginSeconds?: number | undefined;
  /** Where tokens are kept; the process-wide `sharedTokenCache` by default. */
  tokenCache?: TokenCache | undefined;
}

/** The OAuth 2.0 client credentials scheme, with what it exposes beyond `AuthScheme`. */
export interface OAuth2ClientCredentialsScheme extends AuthScheme {
  /** The subscription key now in use. */
  readonly activeSubscriptionKey: 'primary' | 'secondary';
}

interface CallState {
  token?: CachedToken;
  keyUsed?: 'primary' | 'secondary';
  /** The token was obtained from the endpoint during this call, so it cannot be stale. */
  fresh: boolean;
  refreshed: boolean;
}

function positiveNumber(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new ConfigurationError(option, 'must be a non-negative number of seconds');
  }
  return value;
}

/** Waits for `promise`, or rejects with the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4) with a subscription key pair, as the exposure
 * and risk engineering services ask for. Data requests carry `Authorization: Bearer <token>` and
 * the subscription key.
 *
 * - Tokens are cached per token URL, client ID, scope set and secret, shared process-wide, refreshed
 *   before they expire; concurrent calls cause one token request (single flight).
 * - The token request authenticates with `Basic base64(urlencode(id):urlencode(secret))`
 *   (RFC 6749 §2.3.1) and goes through the client's transport, so a 5xx is retried with
 *   backoff; a 4xx becomes a `TokenError`, never retried.
 * - A 401 on a data request refreshes the token and sends the call again, once. A 401 with a
 *   fresh token means the subscription key was refused: the secondary key takes over, is kept
 *   for every later call, and `onKeyFailover` is reported.
 *
 * @example
 * const auth = oauth2ClientCredentials({
 *   tokenUrl: 'https://auth.example.com/login/connect/token',
 *   clientId: process.env.CLIENT_ID ?? '',
 *   clientSecret: process.env.CLIENT_SECRET ?? '',
 *   scopes: ['Portal.Api', 'Portal.Api.Exposure'],
 *   subscriptionKeys: { primary: process.env.KEY_1 ?? '', secondary: process.env.KEY_2 },
 * });
 */
export function oauth2ClientCredentials(
  options: OAuth2ClientCredentialsOptions,
): OAuth2ClientCredentialsScheme {
  const tokenUrl = parseSecureUrl('auth.tokenUrl', options.tokenUrl).href;
  const clientId = requireCredential('auth.clientId', options.clientId);
  const clientSecret = requireCredential('auth.clientSecret', options.clientSecret);
  const keys = options.subscriptionKeys as
    OAuth2ClientCredentialsOptions['subscriptionKeys'] | undefined;
  const primaryKey = requireHeaderCredential('auth.subscriptionKeys.primary', keys?.primary);
  const secondaryKey =
    keys?.secondary === undefined
      ? undefined
      : requireHeaderCredential('auth.subscriptionKeys.secondary', keys.secondary);
  const separator = options.scopeSeparator ?? DEFAULT_SCOPE_SEPARATOR;
  if (typeof separator !== 'string' || separator.length === 0) {
    throw new ConfigurationError('auth.scopeSeparator', 'must be a non-empty string');
  }
  if (!Array.isArray(options.scopes) || options.scopes.length === 0) {
    throw new ConfigurationError('auth.scopes', 'must name at least one scope');
  }
  const scopes = [...new Set(options.scopes)];
  for (const scope of scopes) {
    if (typeof scope !== 'string' || scope === '' || scope.includes(separator)) {
      throw new ConfigurationError(
        'auth.scopes',
        `must be non-empty strings without "${separator}"`,
      );
    }
  }
  const tokenKey = keyPlacement(
    'auth.tokenRequestKey',
    options.tokenRequestKey ?? DEFAULT_TOKEN_REQUEST_KEY,
  );
  const dataKey = keyPlacement('auth.subscriptionKey', options.subscriptionKey ?? tokenKey);
  const defaultLifetime = positiveNumber(
    'auth.defaultLifetimeSeconds',
    options.defaultLifetimeSeconds,
    DEFAULT_TOKEN_LIFETIME_SECONDS,
  );
  const configuredMargin =
    options.refreshMarginSeconds === undefined
      ? undefined
      : positiveNumber('auth.refreshMarginSeconds', options.refreshMarginSeconds, 0);
  const cache = options.tokenCache ?? sharedTokenCache;

  let cacheKeyDerived: Promise<string> | undefined;
  /** The key once derived, for `secretValues`, which cannot wait for it. */
  let cacheKeyKnown: string | undefined;
  const cacheKeyOf = () =>
    (cacheKeyDerived ??= tokenCacheKey({ tokenUrl, clientId, scopes, clientSecret }).then(
      (key) => (cacheKeyKnown = key),
    ));
  const redactedTokenUrl = redactUrl(tokenUrl);
  const basic = basicAuthorization(clientId, clientSecret, 'form-urlencoded');
  const formBody = new URLSearchParams({
    grant_type: 'client_credentials',
    scope: scopes.join(separator),
  }).toString();
  const secrets = [clientSecret, basic, basic.slice('Basic '.length), primaryKey];
  if (secondaryKey !== undefined) secrets.push(secondaryKey);
  const calls = new WeakMap<AuthContext, CallState>();
  let activeKey: 'primary' | 'secondary' = 'primary';

  const keyValue = (key: 'primary' | 'secondary') =>
    key === 'secondary' && secondaryKey !== undefined ? secondaryKey : primaryKey;

  function failOver(context: AuthContext, refusedBy: 'data-request' | 'token-request'): void {
    if (activeKey === 'secondary' || secondaryKey === undefined) return;
    activeKey = 'secondary';
    context.events.onKeyFailover?.({ from: 'primary', to: 'secondary', refusedBy });
  }

  function toCachedToken(response: TokenResponse, requestedAt: number): CachedToken {
    const lifetimeSeconds = response.expires_in ?? defaultLifetime;
    const margin = Math.min(
      configuredMargin ?? Math.max(120, lifetimeSeconds * 0.1),
      lifetimeSeconds / 2,
    );
    return {
      accessToken: response.access_token,
      expiresAt: requestedAt + lifetimeSeconds * 1000,
      refreshAt: requestedAt + (lifetimeSeconds - margin) * 1000,
      lifetimeSeconds,
    };
  }

  function postTokenRequest(context: AuthContext, key: 'primary' | 'secondary') {
    const headers = new Headers({
      authorization: basic,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    });
    const query: [string, string][] = [];
    placeKey(tokenKey, keyValue(key), headers, query);
    return context.send({
      method: 'POST',
      url: tokenUrl,
      headers: Object.fromEntries(headers),
      query,
      body: formBody,
    });
  }

  async function requestToken(
    context: AuthContext,
    reason: TokenRefreshReason,
  ): Promise<CachedToken> {
    const requestedAt = context.now();
    const usedKey = activeKey;
    let answer = await postTokenRequest(context, usedKey);
    // The documents show neither how a refused key looks nor which 401 means it: any 401 may be
    // the key's, so the secondary is tried once, and kept only when it gets a token.
    if (answer.status === 401 && usedKey === 'primary' && secondaryKey !== undefined) {
      const second = await postTokenRequest(context, 'secondary');
      if (isOk(second.status) && parseTokenResponse(second.text) !== undefined) {
        failOver(context, 'token-request');
      }
      answer = second;
    }
    const { status, text } = answer;
    if (isOk(status)) {
      const body = parseTokenResponse(text);
      if (body === undefined) {
        throw new TokenError({
          status,
          error: 'invalid_token_response',
          errorDescription: 'the response carries no Bearer access_token',
          tokenUrl,
          secrets,
        });
      }
      if (!isHeaderSafe(body.access_token)) {
        // fetch would refuse the header with a TypeError that quotes the token.
        throw new TokenError({
          status,
          error: 'invalid_token_response',
          errorDescription:
            'the access_token holds characters an HTTP header cannot carry (controls or non-Latin-1)',
          tokenUrl,
          secrets: [...secrets, body.access_token],
        });
      }
      const token = toCachedToken(body, requestedAt);
      context.events.onTokenRefresh?.({
        tokenUrl: redactedTokenUrl,
        scopes,
        reason,
        expiresAt: token.expiresAt,
        lifetimeSeconds: token.lifetimeSeconds,
        lifetimeAssumed: body.expires_in === undefined,
      });
      return token;
    }
    if (status >= 400 && status < 500) {
      const body = parseTokenErrorBody(text);
      throw new TokenError({
        status,
        error: body?.error ?? 'unexpected_response',
        errorDescription: body?.error_description,
        errorUri: body?.error_uri,
        tokenUrl,
        secrets,
      });
    }
    throw apiErrorFromResponse({
      response: answer,
      text,
      request: { method: 'POST', url: tokenUrl },
      secrets,
      now: context.now(),
    });
  }

  function refresh(
    cacheKey: string,
    context: AuthContext,
    reason: TokenRefreshReason,
  ): Promise<CachedToken> {
    // The flight is shared, so it must not die with the caller that happened to start it.
    const flight = cache.singleFlight(cacheKey, () => requestToken(context, reason));
    return untilAborted(flight, context.signal);
  }

  async function currentToken(context: AuthContext, state: CallState): Promise<CachedToken> {
    const cacheKey = await cacheKeyOf();
    const now = context.now();
    const cached = cache.get(cacheKey);
    if (cached !== undefined && now < cached.refreshAt) return cached;
    if (cached !== undefined && now < cached.expiresAt) {
      try {
        const token = await refresh(cacheKey, context, 'expiring');
        state.fresh = true;
        return token;
      } catch (error) {
        if (context.signal.aborted) throw error;
        // The current token is still valid: keep using it, and try again halfway to expiry.
        cached.refreshAt = now + (cached.expiresAt - now) / 2;
        return cached;
      }
    }
    const token = await refresh(cacheKey, context, cached === undefined ? 'initial' : 'expired');
    state.fresh = true;
    return token;
  }

  return {
    secretHeaderNames: [
      ...new Set([
        'authorization',
        ...[dataKey, tokenKey].flatMap((k) => (k.in === 'header' ? [k.name] : [])),
      ]),
    ],
    clientId,
    secretDates: secretDatesOf(options),
    secretValues() {
      const token = cacheKeyKnown === undefined ? undefined : cache.get(cacheKeyKnown)?.accessToken;
      return token === undefined ? secrets : [...secrets, token];
    },
    get activeSubscriptionKey() {
      return activeKey;
    },

    async authorize(headers, context) {
      let state = calls.get(context);
      if (state === undefined) {
        state = { fresh: false, refreshed: false };
        calls.set(context, state);
      }
      const token = await currentToken(context, state);
      state.token = token;
      state.keyUsed = activeKey;
      headers.set('authorization', `Bearer ${token.accessToken}`);
      if (dataKey.in !== 'query') placeKey(dataKey, keyValue(activeKey), headers, []);
    },

    queryParameters() {
      return dataKey.in === 'query' ? [[dataKey.name, keyValue(activeKey)]] : [];
    },

    async onUnauthorized(_answer, context) {
      const state = calls.get(context);
      if (state?.token === undefined) return 'fail';
      if (!state.fresh && !state.refreshed) {
        const cacheKey = await cacheKeyOf();
        state.refreshed = true;
        cache.invalidate(cacheKey, state.token);
        // Another call may already have replaced the token; then this one just uses it.
        if (cache.get(cacheKey) === undefined) await refresh(cacheKey, context, 'unauthorized');
        state.fresh = true;
        return 'retry';
      }
      if (state.keyUsed === 'primary' && secondaryKey !== undefined) {
        failOver(context, 'data-request');
        return 'retry';
      }
      return 'fail';
    },
  };
}
