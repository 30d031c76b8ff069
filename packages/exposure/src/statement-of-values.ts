/**
 * A local check of a Statement of Values against the spec's `StatementOfValues` schema, in an
 * entry of its own (`@partner-apis/exposure/statement-of-values`) so that clients that never
 * check one do not load its validators. The schema is our assumption (the payload is not
 * published), so the check is advisory: `submit` never runs it.
 *
 * @example
 * import { validateStatementOfValues } from '@partner-apis/exposure/statement-of-values';
 *
 * const { valid, problems } = validateStatementOfValues(portfolio);
 * if (!valid) for (const problem of problems) console.warn(problem.pointer, problem.message);
 */
import {
  validateStatementOfValues as matchesSchema,
  type SchemaError,
} from './generated/validators.js';

/** One way a portfolio breaks the spec's `StatementOfValues` schema. */
export interface ValidationProblem {
  /** JSON Pointer (RFC 6901) to the offending value, e.g. `/locations/2/address/country`. */
  readonly pointer: string;
  /** What is wrong, e.g. `is required` or `must match pattern "^[A-Z]{2}$"`. */
  readonly message: string;
  /** The JSON Schema keyword that failed, e.g. `required`, `pattern`, `minimum`. */
  readonly keyword?: string;
}

/** The result of `validateStatementOfValues`. */
export interface StatementOfValuesValidation {
  readonly valid: boolean;
  /** Every problem, in the order of the schema; empty when `valid`. */
  readonly problems: readonly ValidationProblem[];
}

function escapeToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Ajv names the object for a missing or extra property; the problem is the property itself. */
function toProblem({ instancePath, keyword, params, message }: SchemaError): ValidationProblem {
  if (keyword === 'required' && typeof params.missingProperty === 'string') {
    return {
      pointer: `${instancePath}/${escapeToken(params.missingProperty)}`,
      message: 'is required',
      keyword,
    };
  }
  if (keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return {
      pointer: `${instancePath}/${escapeToken(params.additionalProperty)}`,
      message: 'is not a field of the schema',
      keyword,
    };
  }
  return { pointer: instancePath, message: message ?? `breaks "${keyword}"`, keyword };
}

/**
 * Checks a portfolio against the `StatementOfValues` schema of the exposure spec, locally: no
 * request is sent. Every problem is reported with its JSON Pointer.
 *
 * @example
 * const { valid, problems } = validateStatementOfValues(JSON.parse(text));
 * if (!valid) for (const problem of problems) console.error(problem.pointer, problem.message);
 */
export function validateStatementOfValues(portfolio: unknown): StatementOfValuesValidation {
  if (matchesSchema(portfolio)) return { valid: true, problems: [] };
  return { valid: false, problems: (matchesSchema.errors ?? []).map(toProblem) };
}
