/** What replaces anything that must not be shown. */
export const REDACTED = '[redacted]';

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Query parameters whose values are credentials, by name: a gateway may take a key, a token or
 * a signature in the query.
 */
const SECRET_PARAMETER =
  /key|token|secret|passw|pwd|signature|^sig$|^code$|auth|credential|session/i;

function decodedName(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** The query with the values of secret parameters replaced; the others stay readable. */
function redactQuery(query: string, secretParameters: readonly string[]): string {
  const extra = new Set(secretParameters.map((name) => name.toLowerCase()));
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const raw = eq === -1 ? pair : pair.slice(0, eq);
      const name = decodedName(raw);
      if (name === undefined) return REDACTED;
      const secret = SECRET_PARAMETER.test(name) || extra.has(name.toLowerCase());
      return secret && eq !== -1 ? `${raw}=${REDACTED}` : pair;
    })
    .join('&');
}

/**
 * A URL fit for messages and logs: user info is dropped, the fragment is replaced by
 * `[redacted]`, and so are the values of query parameters that carry credentials (a name like
 * `key`, `token`, `secret`, `signature`, or one of `secretParameters`, e.g. the subscription key
 * parameter a spec names); paging and filters stay readable. Never throws; a value that is not a
 * URL is treated likewise.
 *
 * @example
 * redactUrl('https://user:pw@api.test/v1/approvals?employeeNumber=42&subscription-key=k');
 * // → 'https://api.test/v1/approvals?employeeNumber=42&subscription-key=[redacted]'
 */
export function redactUrl(url: string, secretParameters: readonly string[] = []): string {
  const hash = url.indexOf('#');
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : `#${REDACTED}`;
  const question = beforeHash.indexOf('?');
  const head = question === -1 ? beforeHash : beforeHash.slice(0, question);
  const query =
    question === -1 ? '' : `?${redactQuery(beforeHash.slice(question + 1), secretParameters)}`;
  const tail = query + fragment;
  const scheme = SCHEME.exec(head)?.[0];
  if (scheme === undefined) return head + tail;
  const rest = head.slice(scheme.length);
  // User info ends at the last `@` of the authority (a password may hold `@`). When the text is
  // not a valid URL the authority's end is unknown, so everything up to the last `@` goes.
  const authorityEnd = URL.canParse(head) ? rest.search(/[/\\]/) : -1;
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf('@');
  return scheme + (at === -1 ? rest : rest.slice(at + 1)) + tail;
}

const HEX = '0123456789abcdef';

/** A hex digit in either case, as a regular expression. */
function hexPattern(digits: string): string {
  return [...digits]
    .map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit))
    .join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

const JSON_SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\\\"',
  '\\': '\\\\\\\\',
  '/': '\\\\/',
  '\b': '\\\\b',
  '\f': '\\\\f',
  '\n': '\\\\n',
  '\r': '\\\\r',
  '\t': '\\\\t',
};

/**
 * Every way one character of a secret may come back: as is, JSON-escaped (`\/`, `\"`, or
 * `\uXXXX` for any character), percent-encoded (its UTF-8 bytes, either hex case), or `+` for a
 * space in a form body.
 */
function characterPattern(character: string): string {
  const alternatives = [escapeRegExp(character)];
  const short = JSON_SHORT_ESCAPES[character];
  if (short !== undefined) alternatives.push(short);
  const units = [...Array(character.length).keys()].map((i) =>
    character.charCodeAt(i).toString(16).padStart(4, '0'),
  );
  alternatives.push(units.map((unit) => `\\\\u${hexPattern(unit)}`).join(''));
  const bytes = [...UTF8.encode(character)].map((byte) =>
    hexPattern(HEX[byte >> 4]! + HEX[byte & 15]!),
  );
  alternatives.push(bytes.map((byte) => `%${byte}`).join(''));
  if (character === ' ') alternatives.push('\\+');
  return `(?:${alternatives.join('|')})`;
}

const UTF8 = new TextEncoder();
const UTF8_TEXT = new TextDecoder();

/**
 * Base64 or Base64url text as UTF-8, as leniently as Node's `Buffer` reads it (no padding
 * needed, anything past `=` or outside the alphabet ignored), with only what every runtime has.
 */
function decodeBase64(text: string): string {
  let clean = text
    .replace(/=.*$/s, '')
    .replaceAll('-', '+')
    .replaceAll('_', '/')
    .replace(/[^A-Za-z0-9+/]/g, '');
  if (clean.length % 4 === 1) clean = clean.slice(0, -1);
  const binary = atob(clean.padEnd(Math.ceil(clean.length / 4) * 4, '='));
  return UTF8_TEXT.decode(Uint8Array.from(binary, (character) => character.charCodeAt(0)));
}

/** Matches a secret in its plain form and in the common encodings, even mixed. */
function secretPattern(secret: string): RegExp {
  return new RegExp([...secret].map(characterPattern).join(''), 'g');
}

/** Runs of Base64 or Base64url text long enough to hide a credential. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{6,}={0,2}/g;

/** True when some alignment of a Base64 (or Base64url) run decodes to text holding a secret. */
function base64Hides(run: string, secrets: readonly string[]): boolean {
  for (let offset = 0; offset < 4 && run.length - offset >= 4; offset++) {
    const decoded = decodeBase64(run.slice(offset));
    if (secrets.some((secret) => decoded.includes(secret))) return true;
  }
  return false;
}

/**
 * The secrets with what an `Authorization` value among them hides: the token of `Bearer <token>`,
 * and the `id:secret` pair of `Basic <base64>` with its secret, as is and form-decoded (an
 * OAuth 2.0 client form-encodes both before Base64).
 */
function withHiddenSecrets(secrets: readonly string[]): string[] {
  const all: string[] = [];
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length === 0) continue;
    all.push(secret);
    const bearer = /^Bearer\s+(\S+)$/i.exec(secret)?.[1];
    if (bearer !== undefined) all.push(bearer);
    const basic = /^Basic\s+([A-Za-z0-9+/_-]+=*)$/i.exec(secret)?.[1];
    if (basic === undefined) continue;
    all.push(basic);
    const pair = decodeBase64(basic);
    const colon = pair.indexOf(':');
    if (colon === -1) continue;
    const password = pair.slice(colon + 1);
    all.push(pair, password);
    try {
      all.push(decodeURIComponent(password.replace(/\+/g, ' ')));
    } catch {
      // Not form-encoded after all; the secret as sent is already in the list.
    }
  }
  return all.filter((secret) => secret.length > 0);
}

/**
 * Replaces every occurrence of each secret in `text` by `[redacted]`, for text a server may
 * have echoed back. A secret is found as is and in the encodings a server may echo it in:
 * JSON string escapes (`\/`, `\u002B`, any character as `\uXXXX`), percent-encoding, form
 * encoding (`+` for a space), and Base64 or Base64url of any text holding it (so the value of a
 * `Basic` header, `base64(clientId:secret)`, is found without knowing the client ID). An
 * `Authorization` value among the secrets (`Basic …`, `Bearer …`) also hides the secret and
 * token inside it. Empty secrets are ignored.
 *
 * @example
 * scrubSecrets('echo: client_secret=s3cr3t', ['s3cr3t']); // → 'echo: client_secret=[redacted]'
 * scrubSecrets('{"echo":"a\\u002Bb"}', ['a+b']);         // → '{"echo":"[redacted]"}'
 */
export function scrubSecrets(text: string, secrets: readonly string[] | undefined): string {
  if (secrets === undefined || text.length === 0) return text;
  // The longest first, so a secret that contains another is replaced whole.
  const all = [...new Set(withHiddenSecrets(secrets))].sort((a, b) => b.length - a.length);
  if (all.length === 0) return text;
  // Each secret is replaced by a mark that no secret's pattern can match, so a later, shorter
  // secret is not looked for inside an earlier one's `[redacted]` (a secret such as `act`).
  const mark = unusedCharacter(text + all.join(''));
  let result = text;
  for (const secret of all) result = result.replace(secretPattern(secret), mark);
  // A Base64 run is at least 4/3 as long as what it encodes, which is at least the shortest secret.
  const shortest = Math.ceil((all[all.length - 1]!.length * 4) / 3);
  return result
    .split(mark)
    .map((part) =>
      part.replace(BASE64_RUN, (run) =>
        run.length >= shortest && base64Hides(run, all) ? REDACTED : run,
      ),
    )
    .join(REDACTED);
}

/** A character of the Unicode private use area that `text` does not contain. */
function unusedCharacter(text: string): string {
  let code = 0xe000;
  while (text.includes(String.fromCharCode(code))) code += 1;
  return String.fromCharCode(code);
}
