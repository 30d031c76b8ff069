import { ConfigurationError } from '@partner-apis/errors';

/**
 * Checks the options of one concern once, when a client is built, and gives them resolved:
 * defaults filled in, a bad value a `ConfigurationError` naming the option.
 */
export type Resolver<Input, Resolved> = (options: Input) => Resolved;

/**
 * How a bad option is told: a `ConfigurationError` for a client's (the default), an
 * `InvalidArgumentError` for a call's.
 */
export type OptionFailure = (option: string, problem: string) => Error;

const configurationError: OptionFailure = (option, problem) =>
  new ConfigurationError(option, problem);

/** What a number option may be. */
export interface NumberRule {
  fallback: number;
  min: number;
  max?: number;
  integer?: boolean;
}

/**
 * A number option, or its fallback when unset.
 */
export function number(
  option: string,
  value: unknown,
  rule: NumberRule,
  fail = configurationError,
): number {
  if (value === undefined) return rule.fallback;
  const max = rule.max ?? Number.MAX_SAFE_INTEGER;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < rule.min ||
    value > max ||
    (rule.integer === true && !Number.isInteger(value))
  ) {
    const kind = rule.integer === true ? 'an integer' : 'a number';
    const range = rule.max === undefined ? `of at least ${rule.min}` : `from ${rule.min} to ${max}`;
    throw fail(option, `must be ${kind} ${range} (got ${String(value)})`);
  }
  return value;
}

/**
 * An object option (`retry`, `timeout`, …), or `{}` when unset; `shape` names its fields in
 * the message, e.g. `{ attemptMs?, totalMs? }`.
 */
export function section(
  option: string,
  value: unknown,
  shape?: string,
  fail = configurationError,
): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null) {
    const what = shape === undefined ? 'an object' : `an object ${shape}`;
    throw fail(option, `must be ${what} (got ${String(value)})`);
  }
  return value as Record<string, unknown>;
}

/** A function option, or its fallback when unset. */
export function fn<T>(option: string, value: unknown, fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'function') throw new ConfigurationError(option, 'must be a function');
  return value as T;
}
