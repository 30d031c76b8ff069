import { REDACTED } from '@partner-apis/errors';

/** Headers whose values are logged as they are; any other header shows `[redacted]`. */
export const DEFAULT_LOGGED_HEADERS: readonly string[] = [
  'accept',
  'cache-control',
  'content-length',
  'content-type',
  'correlation-id',
  'date',
  'etag',
  'retry-after',
  'user-agent',
  'x-correlation-id',
];

/** Headers never shown, whatever the allow-list says. */
const ALWAYS_SECRET = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie'];

/**
 * A function that turns headers into a plain object for logs: values of allow-listed headers
 * as they are, every other value `[redacted]`. Credential headers are never shown, even if
 * allow-listed.
 */
export function createHeaderRedactor(
  allowed: readonly string[],
  secret: readonly string[],
): (headers: Headers) => Record<string, string> {
  const never = new Set([...ALWAYS_SECRET, ...secret].map((name) => name.toLowerCase()));
  const shown = new Set(
    allowed.map((name) => name.toLowerCase()).filter((name) => !never.has(name)),
  );
  return (headers) => {
    const result: Record<string, string> = {};
    headers.forEach((value, name) => {
      result[name] = shown.has(name) ? value : REDACTED;
    });
    return result;
  };
}
