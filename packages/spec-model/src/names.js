// @ts-check
/**
 * The client member each operation is called through (`<resource>.<verb>()`), from any
 * operationId style: camelCase, kebab-case, snake_case, `Resource_Verb`, or a bare verb with a
 * tag; `x-client-method` overrides. Names that meet are parted the same way on every run.
 */
import { isObject } from './document.js';

/** @typedef {{ resource: string, verb: string }} ClientMethod */

/** The members a paged read gives its resource. */
export const PAGED_VERBS = ['list', 'page', 'sync'];

/**
 * The plural of a resource name, by the rules English names of collections follow.
 * @param {string} name
 */
function plural(name) {
  if (/s$/i.test(name)) return name;
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(x|ch|sh)$/i.test(name)) return `${name}es`;
  return `${name}s`;
}

/**
 * The words of a name in any case style: `getMuseumHours`, `get-stations`, `list_users`.
 * @param {string} name
 */
function words(name) {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
}

/**
 * Words joined in camelCase: `['special', 'Events']` → `specialEvents`.
 * @param {readonly string[]} list
 */
function camel(list) {
  return list
    .map((word, i) => {
      const lower = word.toLowerCase();
      return i === 0 ? lower : lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join('');
}

/**
 * The resource of an operation whose operationId is a bare verb: its first tag, else the last
 * literal segment of its path.
 * @param {Record<string, unknown>} operation
 * @param {string} path
 */
function resourceOfContext(operation, path) {
  const [tag] = Array.isArray(operation.tags) ? operation.tags : [];
  if (typeof tag === 'string' && words(tag).length > 0) return camel(words(tag));
  const segment = path
    .split('/')
    .filter((part) => part !== '' && !part.startsWith('{'))
    .at(-1);
  return camel(words(segment ?? 'root'));
}

/**
 * The member `<resource>.<verb>` an operation asks for, before names that meet are parted.
 * @param {Record<string, unknown>} operation
 * @param {string} operationId
 * @param {string} path
 * @param {string} where for messages
 * @returns {ClientMethod}
 */
export function requestedMethod(operation, operationId, path, where) {
  const named = operation['x-client-method'];
  if (named !== undefined) {
    const match =
      typeof named === 'string' ? /^([a-z][A-Za-z0-9]*)\.([a-z][A-Za-z0-9]*)$/.exec(named) : null;
    if (match === null) {
      throw new Error(`${where}: x-client-method must be <resource>.<verb>, e.g. locations.list`);
    }
    return { resource: match[1] ?? '', verb: match[2] ?? '' };
  }
  const azure = /^([A-Z][A-Za-z0-9]*)_([A-Za-z][A-Za-z0-9]*)$/.exec(operationId);
  const list = words(operationId);
  /** @type {ClientMethod} */
  let method;
  if (azure !== null) {
    method = { resource: camel(words(azure[1] ?? '')), verb: camel(words(azure[2] ?? '')) };
  } else if (list.length === 1) {
    method = { resource: resourceOfContext(operation, path), verb: camel(list) };
  } else {
    method = { resource: plural(camel(list.slice(1))), verb: camel(list.slice(0, 1)) };
  }
  if (!/^[a-z][A-Za-z0-9]*$/.test(method.resource) || !/^[a-z][A-Za-z0-9]*$/.test(method.verb)) {
    throw new Error(
      `${where}: operationId ${operationId} gives no <resource>.<verb>; name it with x-client-method`,
    );
  }
  return method;
}

/**
 * Parts the members of operations that ask for the same name: in document order, the first
 * keeps it and a later one is called by its whole operationId in camelCase (`getStationById`),
 * numbered if that is taken too. A paged read takes `list`, `page` and `sync` of its resource.
 * @param {readonly { operationId: string, requested: ClientMethod, paged: boolean }[]} operations
 * @returns {ClientMethod[]}
 */
export function partNames(operations) {
  /** @type {Map<string, Set<string>>} */
  const taken = new Map();
  /** @param {string} resource @param {readonly string[]} verbs */
  const free = (resource, verbs) => !verbs.some((verb) => taken.get(resource)?.has(verb));
  return operations.map(({ operationId, requested, paged }) => {
    let { resource, verb } = requested;
    const base = camel(words(operationId));
    // A paged read keeps its three verbs, under a resource of its own if need be.
    for (let n = 1; !free(resource, paged ? PAGED_VERBS : [verb]); n += 1) {
      const name = n === 1 ? base : `${base}${n}`;
      if (paged) resource = name;
      else verb = name;
    }
    const verbs = taken.get(resource) ?? new Set();
    for (const v of paged ? PAGED_VERBS : [verb]) verbs.add(v);
    taken.set(resource, verbs);
    return { resource, verb };
  });
}

/**
 * `x-mcp` of an operation: `{ name }` renames its MCP tool, `{ hidden: true }` leaves it out.
 * @param {unknown} value
 * @param {string} where
 * @returns {{ mcp?: { name?: string, hidden?: boolean } }}
 */
export function mcpOf(value, where) {
  if (value === undefined) return {};
  const valid =
    isObject(value) &&
    (value.name === undefined ||
      (typeof value.name === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value.name))) &&
    (value.hidden === undefined || typeof value.hidden === 'boolean');
  if (!valid) {
    throw new Error(
      `${where}: x-mcp must be { name?: a tool name of 1–64 letters, digits, _ or -, hidden?: boolean }`,
    );
  }
  return {
    mcp: {
      name: /** @type {string | undefined} */ (value.name),
      hidden: /** @type {boolean | undefined} */ (value.hidden),
    },
  };
}
