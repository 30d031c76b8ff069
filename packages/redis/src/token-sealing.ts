import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { CachedToken } from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';

/** Turns a token into what Redis stores and back; `open` answers `undefined` for anything else. */
export interface TokenSealing {
  seal(token: CachedToken, key: string): string;
  open(stored: string, key: string): CachedToken | undefined;
}

interface StoredToken {
  a: string;
  e: number;
  r: number;
  l: number;
}

const PLAIN = 'p1.';
const SEALED = 'g1.';

function toStored(token: CachedToken): string {
  const stored: StoredToken = {
    a: token.accessToken,
    e: token.expiresAt,
    r: token.refreshAt,
    l: token.lifetimeSeconds,
  };
  return JSON.stringify(stored);
}

function fromStored(text: string): CachedToken | undefined {
  try {
    const value = JSON.parse(text) as Partial<StoredToken> | null;
    if (
      typeof value?.a !== 'string' ||
      typeof value.e !== 'number' ||
      typeof value.r !== 'number' ||
      typeof value.l !== 'number'
    ) {
      return undefined;
    }
    return {
      accessToken: value.a,
      expiresAt: value.e,
      refreshAt: value.r,
      lifetimeSeconds: value.l,
    };
  } catch {
    return undefined;
  }
}

/**
 * The key of `encryptionKey`, checked: 32 bytes, given as bytes or as base64.
 *
 * @example
 * encryptionKeyBytes(randomBytes(32).toString('base64')); // a 32-byte Buffer
 */
export function encryptionKeyBytes(value: unknown): Buffer | undefined {
  if (value === undefined) return undefined;
  let bytes: Buffer | undefined;
  if (value instanceof Uint8Array) bytes = Buffer.from(value);
  else if (typeof value === 'string' && /^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) {
    bytes = Buffer.from(value, 'base64');
  }
  if (bytes?.length !== 32) {
    throw new ConfigurationError(
      'encryptionKey',
      'must be 32 bytes (AES-256), as a Uint8Array or a base64 string',
    );
  }
  return bytes;
}

/**
 * Tokens stored as JSON, or, with a key, sealed with AES-256-GCM: a fresh nonce per write and
 * the Redis key as associated data, so an entry copied under another key does not open.
 *
 * @example
 * const sealing = createTokenSealing(randomBytes(32));
 * sealing.open(sealing.seal(token, 'k'), 'k'); // token
 */
export function createTokenSealing(key: Buffer | undefined): TokenSealing {
  if (key === undefined) {
    return {
      seal: (token) => PLAIN + toStored(token),
      open: (stored) =>
        stored.startsWith(PLAIN) ? fromStored(stored.slice(PLAIN.length)) : undefined,
    };
  }
  return {
    seal(token, redisKey) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(redisKey));
      const body = Buffer.concat([cipher.update(toStored(token), 'utf8'), cipher.final()]);
      const parts = [nonce, body, cipher.getAuthTag()].map((part) => part.toString('base64url'));
      return SEALED + parts.join('.');
    },
    open(stored, redisKey) {
      if (!stored.startsWith(SEALED)) return undefined;
      const [nonce, body, tag] = stored
        .slice(SEALED.length)
        .split('.')
        .map((part) => Buffer.from(part, 'base64url'));
      if (nonce?.length !== 12 || body === undefined || tag?.length !== 16) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, nonce);
        decipher.setAAD(Buffer.from(redisKey));
        decipher.setAuthTag(tag);
        return fromStored(
          Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8'),
        );
      } catch {
        // Sealed with another key, or altered: as good as absent.
        return undefined;
      }
    },
  };
}
