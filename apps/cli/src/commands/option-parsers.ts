import { InvalidArgumentError } from 'commander';

/**
 * A commander parser for a whole number from `min` to `max`; anything else is a usage error
 * (exit code 2) that names the option.
 */
export function integerOption(min: number, max: number): (value: string) => number {
  return (value) => {
    const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(number) || number < min || number > max) {
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}.`);
    }
    return number;
  };
}

/**
 * A commander parser that collects a repeatable option into a list.
 */
export function collect(value: string, previous: readonly string[] = []): string[] {
  return [...previous, value];
}
