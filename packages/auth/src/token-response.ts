import type { components } from './generated/openapi.js';

/** A successful token response (RFC 6749 §5.1), as `specs/auth/openapi.yaml` defines it. */
export type TokenResponse = components['schemas']['TokenResponse'];
/** An error response of the token endpoint (RFC 6749 §5.2). */
export type TokenErrorResponse = components['schemas']['TokenErrorResponse'];
/** A scope value the token endpoint knows. */
export type Scope = components['schemas']['Scope'];

function parseObject(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function lifetime(value: unknown): number | undefined {
  const seconds = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
    ? seconds
    : undefined;
}

/**
 * Reads a token response. Never throws: gives `undefined` unless there is a non-empty
 * `access_token` of type Bearer (a missing `token_type` is taken as Bearer). An `expires_in`
 * that is not a non-negative number (numeric text is accepted) is dropped.
 *
 * @example
 * parseTokenResponse('{"access_token":"t","token_type":"bearer","expires_in":"3600"}');
 * // → { access_token: 't', token_type: 'bearer', expires_in: 3600 }
 */
export function parseTokenResponse(text: string): TokenResponse | undefined {
  const value = parseObject(text);
  if (value === undefined) return undefined;
  const { access_token: accessToken, token_type: tokenType = 'Bearer', scope } = value;
  if (typeof accessToken !== 'string' || accessToken.length === 0) return undefined;
  if (typeof tokenType !== 'string' || tokenType.toLowerCase() !== 'bearer') return undefined;
  const response: TokenResponse = { access_token: accessToken, token_type: tokenType };
  const expiresIn = lifetime(value.expires_in);
  if (expiresIn !== undefined) response.expires_in = expiresIn;
  if (typeof scope === 'string') response.scope = scope;
  return response;
}

/**
 * Reads an RFC 6749 §5.2 error body. Never throws: gives `undefined` unless `error` is a string.
 * Codes outside the RFC's list are kept as they are.
 *
 * @example
 * parseTokenErrorBody('{"error":"invalid_client"}'); // → { error: 'invalid_client' }
 */
export function parseTokenErrorBody(
  text: string,
): (Omit<TokenErrorResponse, 'error'> & { error: string }) | undefined {
  const value = parseObject(text);
  if (value === undefined || typeof value.error !== 'string') return undefined;
  const body: Omit<TokenErrorResponse, 'error'> & { error: string } = { error: value.error };
  if (typeof value.error_description === 'string') body.error_description = value.error_description;
  if (typeof value.error_uri === 'string') body.error_uri = value.error_uri;
  return body;
}
