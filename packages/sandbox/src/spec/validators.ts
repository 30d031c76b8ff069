import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import type { OperationModel, ParameterModel } from '@partner-apis/spec-model';

/** One cause of a refused request or of a response that breaks the spec. */
export interface ValidationCause {
  /** The JSON Schema keyword that failed, e.g. `required`, `maximum`, `type`. */
  code: string;
  message: string;
  /** JSON Pointer (RFC 6901) to the offending part, e.g. `/limit` or `/policyLines/0/id`. */
  field: string;
}

/** Validates one value; `undefined` when it is valid, the causes otherwise. */
export type Validator = (value: unknown) => ValidationCause[] | undefined;

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default;

// Two instances: parameters arrive as text and are coerced (and given their defaults) as the
// spec's types say; bodies and responses are JSON already and are checked as they are.
// `strict: false` because OpenAPI schemas carry keywords Ajv does not know (`x-…`, `example`).
const parameterAjv = new Ajv2020({
  strict: false,
  allErrors: true,
  coerceTypes: 'array',
  useDefaults: true,
});
const bodyAjv = new Ajv2020({ strict: false, allErrors: true });
addFormats(parameterAjv);
addFormats(bodyAjv);

function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

function toCauses(errors: readonly ErrorObject[]): ValidationCause[] {
  const causes: ValidationCause[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // `if` only reports that a `then` failed; the `then` error itself is in the list.
    if (error.keyword === 'if') continue;
    let field = error.instancePath;
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
      field += `/${escapePointerToken(params.missingProperty)}`;
    } else if (
      error.keyword === 'additionalProperties' &&
      typeof params.additionalProperty === 'string'
    ) {
      field += `/${escapePointerToken(params.additionalProperty)}`;
    }
    const message =
      error.keyword === 'required'
        ? `${field.slice(1)} is required`
        : error.keyword === 'additionalProperties'
          ? `${field.slice(1)} is not allowed`
          : `${field.slice(1) || 'the value'} ${error.message ?? 'is invalid'}`;
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    causes.push({ code: error.keyword, message, field });
  }
  return causes;
}

function wrap(validate: ValidateFunction): Validator {
  return (value) => (validate(value) ? undefined : toCauses(validate.errors ?? []));
}

/** The validators of one operation, compiled on first use and then reused. */
export interface OperationValidators {
  /** Checks (and coerces, and fills defaults into) the parameters of one location. */
  readonly query: Validator;
  readonly header: Validator;
  readonly cookie: Validator;
  readonly path: Validator;
  /** Checks the parsed request body; `undefined` when the operation takes none. */
  readonly body: Validator | undefined;
  /** Checks a response body against the schema documented for its status. */
  response(schema: unknown): Validator;
}

function parameterSchema(parameters: readonly ParameterModel[]): object {
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
  };
}

const compiled = new WeakMap<OperationModel, OperationValidators>();

/**
 * The validators of an operation, compiled once per process. Its schemas stand alone: the
 * sandbox describes its specs with every `$ref` inlined.
 */
export function validatorsFor(operation: OperationModel): OperationValidators {
  const existing = compiled.get(operation);
  if (existing) return existing;
  const byLocation = (location: ParameterModel['in']) =>
    wrap(
      parameterAjv.compile(parameterSchema(operation.parameters.filter((p) => p.in === location))),
    );
  const responseValidators = new Map<unknown, Validator>();
  const validators: OperationValidators = {
    query: byLocation('query'),
    header: byLocation('header'),
    cookie: byLocation('cookie'),
    path: byLocation('path'),
    body: operation.body ? wrap(bodyAjv.compile(operation.body.schema as object)) : undefined,
    response(schema) {
      let validator = responseValidators.get(schema);
      if (!validator) {
        validator = wrap(bodyAjv.compile((schema ?? {}) as object));
        responseValidators.set(schema, validator);
      }
      return validator;
    },
  };
  compiled.set(operation, validators);
  return validators;
}
