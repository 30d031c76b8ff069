/**
 * Parses an RFC 6901 JSON Pointer into its reference tokens, unescaping `~1` to `/` and `~0` to
 * `~`. Accepts the URI fragment form (`#/a/b`) too. Never throws: anything that is not a
 * pointer gives `undefined`.
 *
 * @example
 * parseJsonPointer('/policyLines/0/a~1b'); // → ['policyLines', '0', 'a/b']
 * parseJsonPointer('');                    // → [] (the whole document)
 * parseJsonPointer('name');                // → undefined
 */
export function parseJsonPointer(pointer: string): string[] | undefined {
  let text = pointer;
  if (text.startsWith('#')) {
    try {
      text = decodeURIComponent(text.slice(1));
    } catch {
      return undefined;
    }
  }
  if (text === '') return [];
  if (!text.startsWith('/')) return undefined;
  const tokens = text.slice(1).split('/');
  for (const token of tokens) {
    if (/~(?![01])/.test(token)) return undefined;
  }
  return tokens.map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/**
 * Writes reference tokens as an RFC 6901 JSON Pointer; the inverse of `parseJsonPointer`.
 *
 * @example
 * formatJsonPointer(['a/b', 'c~d']); // → '/a~1b/c~0d'
 */
export function formatJsonPointer(tokens: readonly string[]): string {
  return tokens.map((token) => `/${token.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/**
 * The value a JSON Pointer points at in a document, or `undefined` when it points at nothing.
 * Only own properties are followed, so `/__proto__` or `/constructor` never reach a prototype.
 * Never throws.
 *
 * @example
 * valueAt({ policyLines: [{ id: 'liability' }] }, '/policyLines/0/id'); // → 'liability'
 */
export function valueAt(document: unknown, pointer: string | readonly string[]): unknown {
  const tokens = typeof pointer === 'string' ? parseJsonPointer(pointer) : pointer;
  if (tokens === undefined) return undefined;
  let current: unknown = document;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!ARRAY_INDEX.test(token)) return undefined;
      current = current[Number(token)];
    } else if (typeof current === 'object' && current !== null && Object.hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return current;
}
