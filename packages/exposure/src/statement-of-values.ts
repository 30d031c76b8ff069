import { checkCallOptions, type ServiceClient } from '@partner-apis/core';
import { InvalidArgumentError } from '@partner-apis/errors';
import type { components, paths } from './generated/openapi.js';
import {
  validateStatementOfValues as matchesSchema,
  type SchemaError,
} from './generated/validators.js';

/** A property portfolio for the provisional Statement of Values submission. */
export type StatementOfValues = components['schemas']['StatementOfValues'];
/** Whatever the service returns for an accepted Statement of Values; not published, so open. */
export type StatementOfValuesReceipt = components['schemas']['StatementOfValuesReceipt'];

/** One way a portfolio breaks the spec's `StatementOfValues` schema. */
export interface ValidationProblem {
  /** JSON Pointer (RFC 6901) to the offending value, e.g. `/locations/2/address/country`. */
  readonly pointer: string;
  /** What is wrong, e.g. `is required` or `must match pattern "^[A-Z]{2}$"`. */
  readonly message: string;
  /** The JSON Schema keyword that failed, e.g. `required`, `pattern`, `minimum`. */
  readonly keyword?: string;
}

/** The result of `statementOfValues.validate`. */
export interface StatementOfValuesValidation {
  readonly valid: boolean;
  /** Every problem, in the order of the schema; empty when `valid`. */
  readonly problems: readonly ValidationProblem[];
}

/** Options of `statementOfValues.submit`. */
export interface SubmitOptions {
  signal?: AbortSignal | undefined;
}

/** The Statement of Values operations of the exposure client. */
export interface StatementOfValuesResource {
  /**
   * Checks a portfolio against the spec's `StatementOfValues` schema, locally: no request is
   * sent. Every problem is reported with its JSON Pointer.
   */
  validate(portfolio: unknown): StatementOfValuesValidation;
  /**
   * Validates the portfolio and, when it is valid, submits it (provisional operation). An
   * invalid portfolio throws `InvalidStatementOfValuesError` before any request.
   */
  submit(portfolio: StatementOfValues, options?: SubmitOptions): Promise<StatementOfValuesReceipt>;
}

/** How many problems the message of `InvalidStatementOfValuesError` spells out. */
const PROBLEMS_IN_MESSAGE = 5;

/**
 * A portfolio given to `statementOfValues.submit` breaks the schema; nothing was sent.
 * `problems` lists every problem with its JSON Pointer.
 *
 * @example
 * try {
 *   await client.statementOfValues.submit(portfolio);
 * } catch (error) {
 *   if (error instanceof InvalidStatementOfValuesError) {
 *     for (const { pointer, message } of error.problems) console.error(pointer, message);
 *   }
 * }
 */
export class InvalidStatementOfValuesError extends InvalidArgumentError {
  static override readonly kind: string = 'InvalidStatementOfValuesError';
  readonly problems: readonly ValidationProblem[];

  constructor(problems: readonly ValidationProblem[]) {
    const shown = problems
      .slice(0, PROBLEMS_IN_MESSAGE)
      .map(({ pointer, message }) => `${pointer || '(the portfolio)'} ${message}`);
    const more = problems.length - shown.length;
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super(
      'portfolio',
      `has ${count}: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`,
      'statementOfValues.submit',
    );
    this.problems = problems;
  }

  protected override details(): Record<string, unknown> {
    return { ...super.details(), problems: this.problems };
  }
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
 * Checks a portfolio against the `StatementOfValues` schema of the exposure spec, locally; the
 * same as `client.statementOfValues.validate`, without a client.
 *
 * @example
 * const { valid, problems } = validateStatementOfValues(JSON.parse(text));
 * if (!valid) for (const problem of problems) console.error(problem.pointer, problem.message);
 */
export function validateStatementOfValues(portfolio: unknown): StatementOfValuesValidation {
  if (matchesSchema(portfolio)) return { valid: true, problems: [] };
  return { valid: false, problems: (matchesSchema.errors ?? []).map(toProblem) };
}

const SUBMIT_PATH = '/open/portal-api/exposure/statement-of-values';

/** The `statementOfValues` resource over the client's openapi-fetch client. */
export function statementOfValuesResource(
  raw: ServiceClient<paths>['raw'],
): StatementOfValuesResource {
  return {
    validate: validateStatementOfValues,

    async submit(portfolio, options) {
      const { problems } = validateStatementOfValues(portfolio);
      if (problems.length > 0) throw new InvalidStatementOfValuesError(problems);
      const { signal } = checkCallOptions(options, 'statementOfValues.submit');
      const { data } = await raw.POST(SUBMIT_PATH, { body: portfolio, signal });
      // Any 2xx is an acceptance, with a body or without one (the response is not published).
      return data ?? {};
    },
  };
}
