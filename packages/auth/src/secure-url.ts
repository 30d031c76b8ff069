import { ConfigurationError, redactUrl } from '@partner-apis/errors';

/**
 * True for the loopback hosts plain HTTP is allowed on: `localhost`, 127.0.0.0/8 and `::1`.
 *
 * @example
 * isLoopbackHost('127.0.0.1'); // true
 * isLoopbackHost('example.com'); // false
 */
export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    hostname === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/**
 * Parses a URL option and refuses anything but `https:`, except plain HTTP on a loopback host
 * (for local sandboxes and tests), and any URL with user info (`user:password@`). The error
 * names the option and never shows the user info.
 *
 * @example
 * parseSecureUrl('baseUrl', 'https://api.example.com/v1'); // URL
 * parseSecureUrl('baseUrl', 'http://example.com');
 * // throws ConfigurationError: baseUrl: must use https (got http://example.com)
 */
export function parseSecureUrl(option: string, value: unknown): URL {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ConfigurationError(option, 'must be an absolute https URL');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(option, `must be an absolute https URL (got ${redactUrl(value)})`);
  }
  const secure =
    url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!secure) throw new ConfigurationError(option, `must use https (got ${redactUrl(value)})`);
  if (url.username !== '' || url.password !== '') {
    // fetch refuses such a URL with a TypeError that shows the password.
    throw new ConfigurationError(
      option,
      `must not carry user info (user:password@); pass credentials as options (got ${redactUrl(value)})`,
    );
  }
  return url;
}
