import { ConfigurationError } from '@partner-apis/errors';
import { base64 } from './base64.js';

/** What a cached token belongs to. */
export interface TokenOwner {
  tokenUrl: string;
  clientId: string;
  scopes: readonly string[];
  clientSecret: string;
}

/**
 * The token cache key of one client: its token URL, client ID, scope set and the SHA-256 digest
 * of its secret. The digest keeps a client with a wrong secret from borrowing the token of a
 * client with the right one, without the secret itself sitting in the key. WebCrypto's digest is
 * asynchronous; the scheme derives the key once, on its first token lookup.
 *
 * @example
 * await tokenCacheKey({ tokenUrl, clientId: 'id', scopes: ['Portal.Api'], clientSecret: 's' });
 */
export async function tokenCacheKey(owner: TokenOwner): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    // Browsers offer WebCrypto in secure contexts (https and localhost) only.
    throw new ConfigurationError(
      'credentials',
      'need WebCrypto (crypto.subtle) to key the token cache; in a browser, serve the page over https',
    );
  }
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(owner.clientSecret));
  return [
    owner.tokenUrl,
    owner.clientId,
    [...owner.scopes].sort().join(' '),
    base64(new Uint8Array(digest)),
  ].join('\n');
}
