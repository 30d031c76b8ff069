// @ts-check
import { createRequire } from 'node:module';
import { Ajv2020, Name } from 'ajv/dist/2020.js';

const require = createRequire(import.meta.url);
/** @type {(ajv: Ajv2020, refs: Record<string, string>) => string} */
const standaloneCode = require('ajv/dist/standalone').default;

/**
 * JSON Schema's `date` format (RFC 3339 full-date): a real calendar day. Used by Ajv while
 * compiling and copied into the generated module, so the validators need no runtime package.
 * @param {string} value
 */
function isDate(value) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return month >= 1 && month <= 12 && day >= 1 && day <= (days[month - 1] ?? 0);
}

/** The formats the validators understand; a schema using any other fails the generation. */
const FORMATS = { date: isDate };

/**
 * Ajv's runtime helpers that standalone code `require`s, and the self-contained functions that
 * replace those calls. Any other `require` fails the generation instead of leaking a dependency.
 * @type {Record<string, string>}
 */
const RUNTIME_HELPERS = {
  'ajv/dist/runtime/ucs2length': require('ajv/dist/runtime/ucs2length').default.toString(),
  'ajv/dist/runtime/equal': require('ajv/dist/runtime/equal').default.toString(),
};

const TYPES = `/** One problem Ajv found; \`instancePath\` is the JSON Pointer (RFC 6901) of the value. */
export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Checks a value; when it answers \`false\`, \`errors\` lists every problem. */
export interface SchemaValidator {
  (value: unknown): boolean;
  errors?: SchemaError[] | null;
}
`;

/** @param {string} name */
function validatorName(name) {
  return `validate${name.replace(/[^A-Za-z0-9_$]/g, '')}`;
}

/**
 * Compiles standalone Ajv validators (JSON Schema 2020-12, as OpenAPI 3.1 uses, every error
 * reported) for schemas of a bundled document, as one TypeScript module without imports.
 * @param {Record<string, unknown>} document the spec, bundled
 * @param {readonly string[]} schemaNames names under `components.schemas`
 * @param {string} label the spec, for messages
 * @returns {string}
 */
export function renderValidators(document, schemaNames, label) {
  const components = /** @type {{ schemas?: Record<string, unknown> } | undefined} */ (
    document.components
  );
  /** @type {string[]} */
  const warnings = [];
  const ajv = new Ajv2020({
    // OpenAPI schemas carry keywords JSON Schema does not know (`x-…`, `example`).
    strict: false,
    allErrors: true,
    formats: FORMATS,
    code: { source: true, esm: true, formats: new Name('formats') },
    logger: {
      log() {},
      warn: (/** @type {unknown} */ message) => warnings.push(String(message)),
      error: (/** @type {unknown} */ message) => warnings.push(String(message)),
    },
  });
  const id = 'openapi-document';
  ajv.addSchema({ $id: id, components: components ?? {} });
  /** @type {Record<string, string>} */
  const refs = {};
  for (const name of schemaNames) {
    if (components?.schemas?.[name] === undefined) {
      throw new Error(`${label}: no schema #/components/schemas/${name}`);
    }
    refs[validatorName(name)] = `${id}#/components/schemas/${name}`;
  }
  let code = standaloneCode(ajv, refs);
  if (warnings.length > 0) throw new Error(`${label}: ${warnings.join('; ')}`);

  code = code.replace(/^"use strict";/, '');
  code = code.replace(/require\("([^"]+)"\)\.default/g, (_call, module) => {
    const source = RUNTIME_HELPERS[module];
    if (source === undefined) throw new Error(`${label}: cannot inline Ajv's ${module}`);
    return `(${source})`;
  });
  if (code.includes('require(')) throw new Error(`${label}: Ajv's code needs a runtime package`);
  code = code.replace(/export const (validate\w+) = (validate\d+);/g, (_line, name, fn) => {
    const schema = schemaNames.find((n) => validatorName(n) === name);
    return (
      `\n/** Checks a value against \`#/components/schemas/${schema}\`. */\n` +
      `export const ${name}: SchemaValidator = ${fn};\n`
    );
  });
  return [
    "// @ts-nocheck -- Ajv's standalone output is JavaScript; the exports are typed.",
    '',
    TYPES,
    '/** The formats the schemas use. */',
    `const formats = { date: ${isDate.toString()} };`,
    code,
    '',
  ].join('\n');
}
