import type { IncomingHttpHeaders } from 'node:http';

/** The ways a misbehaving server echoes a secret back. */
export type SecretEncoding =
  'plain' | 'json' | 'unicode' | 'percent' | 'form' | 'base64' | 'base64url';

/** Every `SecretEncoding`, in a stable order. */
export const SECRET_ENCODINGS: readonly SecretEncoding[] = [
  'plain',
  'json',
  'unicode',
  'percent',
  'form',
  'base64',
  'base64url',
];

/**
 * The text a secret becomes in one encoding, as it would sit inside a JSON string or an HTML
 * page: `json` is JSON string escaping with `\/` (as some servers write it), `unicode` is
 * `\uXXXX` for every character, `form` is `application/x-www-form-urlencoded`.
 */
export function encodeSecret(secret: string, encoding: SecretEncoding): string {
  switch (encoding) {
    case 'plain':
      return secret;
    case 'json':
      return JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/');
    case 'unicode':
      return [...Array(secret.length).keys()]
        .map((i) => `\\u${secret.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`)
        .join('');
    case 'percent':
      return encodeURIComponent(secret);
    case 'form':
      return new URLSearchParams([['', secret]]).toString().slice(1);
    case 'base64':
      return Buffer.from(secret, 'utf8').toString('base64');
    case 'base64url':
      return Buffer.from(secret, 'utf8').toString('base64url');
  }
}

/** Header names whose values are credentials, in lower case. */
const CREDENTIAL_HEADERS = ['client_id', 'client_secret', 'ocp-apim-subscription-key', 'x-api-key'];

/**
 * The credentials a request carries: the `Authorization` value, the token of `Bearer`, the
 * `id:secret` pair of `Basic` and its secret (as sent and form-decoded), credential headers and
 * a `client_secret` form field. The client ID of a pair is left out: it is not a secret.
 */
export function credentialsOf(headers: IncomingHttpHeaders, body: string): string[] {
  const found: string[] = [];
  const authorization = headers.authorization;
  if (typeof authorization === 'string' && authorization !== '') {
    found.push(authorization);
    const [scheme = '', value = ''] = authorization.split(/\s+/, 2);
    if (/^bearer$/i.test(scheme)) found.push(value);
    if (/^basic$/i.test(scheme)) {
      const pair = Buffer.from(value, 'base64').toString('utf8');
      const secret = pair.slice(pair.indexOf(':') + 1);
      found.push(pair, secret);
      const decoded = formDecode(secret);
      if (decoded !== secret) found.push(decoded);
    }
  }
  for (const name of CREDENTIAL_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string' && value !== '' && name !== 'client_id') found.push(value);
  }
  const formSecret = new URLSearchParams(body).get('client_secret');
  if (formSecret) found.push(formSecret);
  return [...new Set(found.filter((value) => value !== ''))];
}

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}
