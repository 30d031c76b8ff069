import { PartnerApisError } from './partner-apis-error.js';

/**
 * A client option is missing or invalid; thrown when the client is created, before any
 * request. The message starts with the option's name.
 *
 * @example
 * throw new ConfigurationError('baseUrl', 'must use https (got http://example.com)');
 * // message: 'baseUrl: must use https (got http://example.com)'
 */
export class ConfigurationError extends PartnerApisError {
  static override readonly kind: string = 'ConfigurationError';
  /** The option, as a path into the options object (e.g. `retry.attempts`). */
  readonly option: string;
  /** What is wrong with it, without the option's name. */
  readonly problem: string;

  constructor(option: string, problem: string) {
    super(`${option}: ${problem}`);
    this.option = option;
    this.problem = problem;
  }

  protected override details(): Record<string, unknown> {
    return { option: this.option };
  }
}

/**
 * An argument of a call is invalid; thrown before any request is sent. The message names the
 * operation and the argument.
 *
 * @example
 * throw new InvalidArgumentError('employeeNumber', 'must be a non-empty string', 'getApprovals');
 * // message: 'getApprovals: employeeNumber must be a non-empty string'
 */
export class InvalidArgumentError extends PartnerApisError {
  static override readonly kind: string = 'InvalidArgumentError';
  /** The argument, as a path into the call's arguments (e.g. `options.pageSize`). */
  readonly argument: string;
  /** What is wrong with it, without the argument's name. */
  readonly problem: string;
  /** The operation that refused it, when given. */
  readonly operation: string | undefined;

  constructor(argument: string, problem: string, operation?: string) {
    super(`${operation === undefined ? '' : `${operation}: `}${argument} ${problem}`);
    this.argument = argument;
    this.problem = problem;
    this.operation = operation;
  }

  protected override details(): Record<string, unknown> {
    return { argument: this.argument, operation: this.operation };
  }
}
