/** What stands in a finding where a secret was. */
export const REDACTED = '[redacted]';

/** The forms a secret takes when a server echoes it: as sent, escaped, encoded. */
function forms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const unicode = [...Array(secret.length).keys()]
    .map((i) => `\\u${secret.charCodeAt(i).toString(16).padStart(4, '0')}`)
    .join('');
  return [
    secret,
    json,
    json.replace(/\//g, '\\/'),
    unicode,
    unicode.toUpperCase().replace(/\\U/g, '\\u'),
    encodeURIComponent(secret),
    new URLSearchParams([['', secret]]).toString().slice(1),
    Buffer.from(secret, 'utf8').toString('base64'),
    Buffer.from(secret, 'utf8').toString('base64url'),
  ];
}

/**
 * Removes secrets from text, in every form a server may echo them in (JSON or `\uXXXX`
 * escaped, percent or form encoded, base64 or base64url).
 *
 * @example
 * const redact = createRedactor(['s3cret']);
 * redact('refused s3cret'); // 'refused [redacted]'
 */
export function createRedactor(secrets: Iterable<string>): (text: string) => string {
  const all = new Set<string>();
  for (const secret of secrets) {
    // A secret shorter than four characters would redact ordinary words.
    if (secret.length < 4) continue;
    for (const form of forms(secret)) if (form.length >= 4) all.add(form);
  }
  // Longest first, so that a form containing another is removed whole.
  const ordered = [...all].sort((a, b) => b.length - a.length);
  return (text) => {
    let result = text;
    for (const form of ordered) result = result.split(form).join(REDACTED);
    return result;
  };
}

/**
 * Applies `redact` to every string of a JSON value, object keys included.
 *
 * @example
 * redactValue({ 's3cret': ['s3cret'] }, createRedactor(['s3cret'])); // { '[redacted]': ['[redacted]'] }
 */
export function redactValue(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [redact(key), redactValue(inner, redact)]),
  );
}
