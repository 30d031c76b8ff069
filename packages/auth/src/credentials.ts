import { ConfigurationError } from '@partner-apis/errors';
import { base64 } from './base64.js';
import type { DateInput, SecretDates } from './secret-expiry.js';

/** A client ID and secret, and optionally when the secret was set or expires. */
export interface ClientCredentials {
  /** The client ID of the client application, issued by the operator. */
  clientId: string;
  /** The client secret; confidential, never logged. */
  clientSecret: string;
  /** When the secret was created or last changed; it expires one year later. */
  secretCreatedAt?: DateInput | undefined;
  /** When the secret expires, if known directly. */
  secretExpiresAt?: DateInput | undefined;
}

/** Refuses a missing or empty credential; the message never shows the value. */
export function requireCredential(option: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new ConfigurationError(option, 'must be a non-empty string');
  }
  if (/[\r\n\0]/.test(value)) {
    throw new ConfigurationError(option, 'must not contain line breaks or NUL characters');
  }
  return value;
}

/**
 * Refuses a credential that goes into an HTTP header as it is: besides `requireCredential`,
 * every character must be Latin-1 (a header value is bytes), so `fetch` never throws a raw
 * `TypeError` later. The message never shows the value.
 */
export function requireHeaderCredential(option: string, value: unknown): string {
  const credential = requireCredential(option, value);
  if (!isHeaderSafe(credential)) {
    throw new ConfigurationError(
      option,
      'must hold only Latin-1 characters without controls, since it is sent in an HTTP header',
    );
  }
  return credential;
}

/** True when `value` can be an HTTP header value as it is: Latin-1, no control but tab. */
export function isHeaderSafe(value: string): boolean {
  return !/[^\t\x20-\x7e\x80-\xff]/.test(value);
}

export function secretDatesOf(credentials: ClientCredentials): SecretDates | undefined {
  if (credentials.secretExpiresAt !== undefined) {
    return { secretExpiresAt: credentials.secretExpiresAt };
  }
  if (credentials.secretCreatedAt !== undefined) {
    return { secretCreatedAt: credentials.secretCreatedAt };
  }
  return undefined;
}

/** application/x-www-form-urlencoded, as RFC 6749 Appendix B asks for client credentials. */
function formUrlEncode(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1);
}

/**
 * The value of an `Authorization: Basic` header. `plain` is RFC 7617 (base64 of
 * `id:secret` in UTF-8), as the liability document describes; `form-urlencoded` first encodes
 * both parts as RFC 6749 §2.3.1 requires of an OAuth 2.0 token request.
 *
 * @example
 * basicAuthorization('id', 'a:b', 'plain');           // 'Basic aWQ6YTpi'
 * basicAuthorization('id', 'a:b', 'form-urlencoded'); // 'Basic aWQ6YSUzQWI='
 */
export function basicAuthorization(
  clientId: string,
  clientSecret: string,
  encoding: 'plain' | 'form-urlencoded',
): string {
  const pair =
    encoding === 'plain'
      ? `${clientId}:${clientSecret}`
      : `${formUrlEncode(clientId)}:${formUrlEncode(clientSecret)}`;
  return `Basic ${base64(new TextEncoder().encode(pair))}`;
}
