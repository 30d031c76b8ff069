/** What replaces anything that must not be shown. */
export const REDACTED = '[redacted]';

/**
 * A URL fit for messages and logs: user info is dropped and the query string and fragment are
 * replaced by `[redacted]`, since filters and identifiers of the caller's data sit there.
 * Never throws; a value that is not a URL is redacted from its first `?` or `#` likewise.
 *
 * @example
 * redactUrl('https://user:pw@api.test/v1/approvals?employeeNumber=42');
 * // → 'https://api.test/v1/approvals?[redacted]'
 */
export function redactUrl(url: string): string {
  const cut = url.search(/[?#]/);
  const head = cut === -1 ? url : url.slice(0, cut);
  const tail = cut === -1 ? '' : `${url[cut]}${REDACTED}`;
  return head.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1') + tail;
}

/**
 * Replaces every occurrence of each secret in `text` by `[redacted]`, for text a server may
 * have echoed back. Empty secrets are ignored.
 *
 * @example
 * scrubSecrets('echo: client_secret=s3cr3t', ['s3cr3t']); // → 'echo: client_secret=[redacted]'
 */
export function scrubSecrets(text: string, secrets: readonly string[] | undefined): string {
  if (secrets === undefined) return text;
  let result = text;
  for (const secret of secrets) {
    if (secret.length > 0) result = result.split(secret).join(REDACTED);
  }
  return result;
}
