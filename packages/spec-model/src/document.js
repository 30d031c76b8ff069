// @ts-check
/**
 * Reading a bundled OpenAPI document: one JSON value whose `$ref`s all point inside it
 * (`#/components/…`), as `@redocly/openapi-core`'s bundle gives it.
 */

/** @typedef {Readonly<Record<string, unknown>>} OpenApiDocument */

/** A `$ref` chain longer than this is taken for a cycle. */
const MAX_HOPS = 32;

/**
 * Whether a JSON value is an object (not an array, not null).
 *
 * @example
 * isObject({ type: 'object' }); // true
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Follows local `$ref`s until a value that is not a reference; `{}` when that is not an object.
 *
 * @example
 * resolveRef(document, { $ref: '#/components/schemas/Location' }); // the Location schema
 * @param {OpenApiDocument} document
 * @param {unknown} node
 * @returns {Record<string, unknown>}
 */
export function resolveRef(document, node) {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops += 1) {
    const ref = current.$ref;
    if (hops > MAX_HOPS) throw new Error(`$ref cycle at ${ref}`);
    if (!ref.startsWith('#/')) throw new Error(`$ref ${ref} is not local: bundle the spec first`);
    /** @type {unknown} */
    let target = document;
    for (const token of ref.slice(2).split('/')) {
      const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
      target = isObject(target) ? target[key] : undefined;
    }
    if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
    current = target;
  }
  return isObject(current) ? current : {};
}

/**
 * A copy of a value with every local `$ref` inlined, so it stands without its document. A
 * reference back into itself (a recursive schema) becomes `{}`, which any value satisfies.
 *
 * @example
 * inlineRefs(document, { $ref: '#/components/schemas/Grading' }); // { type: 'object', … }
 * @param {OpenApiDocument} document
 * @param {unknown} value
 * @param {ReadonlySet<string>} [visiting] the references being inlined around `value`
 * @returns {unknown}
 */
export function inlineRefs(document, value, visiting = new Set()) {
  if (Array.isArray(value)) return value.map((item) => inlineRefs(document, item, visiting));
  if (!isObject(value)) return value;
  if (typeof value.$ref === 'string') {
    if (visiting.has(value.$ref)) return {};
    return inlineRefs(document, resolveRef(document, value), new Set([...visiting, value.$ref]));
  }
  /** @type {Record<string, unknown>} */
  const copy = {};
  for (const [key, inner] of Object.entries(value))
    copy[key] = inlineRefs(document, inner, visiting);
  return copy;
}
