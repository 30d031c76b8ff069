import { ConfigurationError } from '@partner-apis/errors';

/**
 * The option names of an object, and of the objects it nests. Each list is checked against its
 * type where it is written (`satisfies Record<keyof …, true>`), so a new option cannot be
 * forgotten here.
 */
export interface OptionNames {
  readonly names: Readonly<Record<string, true>>;
  readonly nested?: Readonly<Record<string, OptionNames>>;
}

/** Edits (insert, delete, replace) that turn `a` into `b`, case ignored; at most `limit + 1`. */
function distance(a: string, b: string, limit: number): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (Math.abs(x.length - y.length) > limit) return limit + 1;
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      const replace = (previous[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1);
      row.push(Math.min(replace, (previous[j] as number) + 1, (row[j - 1] as number) + 1));
    }
    previous = row;
  }
  return previous[y.length] as number;
}

/**
 * Names other SDKs give these options (openai-node's `baseURL` and `maxRetries`), so their users
 * are told ours.
 */
const OTHER_SDK_NAMES: Readonly<Record<string, string>> = {
  baseURL: 'baseUrl',
  maxRetries: 'retry.attempts',
  retries: 'retry.attempts',
  max_retries: 'retry.attempts',
};

/** The known name `name` is most likely a slip for, if one is close enough. */
function meant(name: string, known: readonly string[]): string | undefined {
  const other = OTHER_SDK_NAMES[name];
  if (other !== undefined && known.includes(other.split('.')[0] as string)) return other;
  let best: { name: string; edits: number } | undefined;
  for (const candidate of known) {
    const edits = distance(name, candidate, 2);
    if (edits <= 2 && (best === undefined || edits < best.edits)) best = { name: candidate, edits };
  }
  return best?.name;
}

/** The options without which no client can be built. */
const REQUIRED_OPTIONS = ['baseUrl', 'credentials', 'tokenUrl'];

/**
 * Refuses options that miss a required option while naming it almost right (`baseURL` for
 * `baseUrl`): the caller learns the name they meant, not that the option is missing or invalid.
 * Runs before the options are checked.
 */
export function checkRequiredOptions(options: object, shape: OptionNames): void {
  const known = Object.keys(shape.names);
  for (const name of Object.keys(options)) {
    if (Object.hasOwn(shape.names, name)) continue;
    const guess = meant(name, known);
    if (
      guess !== undefined &&
      REQUIRED_OPTIONS.includes(guess) &&
      Object.hasOwn(shape.names, guess) &&
      (options as Record<string, unknown>)[guess] === undefined
    ) {
      throw new ConfigurationError(guess, `is required; did you mean ${guess} instead of ${name}?`);
    }
  }
}

/**
 * One sentence per option the client does not know, in `options` and the objects it nests
 * (`retry`, `timeout`, `tracing`), naming what it most likely meant. Such an option is ignored,
 * which in JavaScript (where no type checks the names) would otherwise go unnoticed.
 */
export function unknownOptions(options: object, shape: OptionNames, prefix = ''): string[] {
  const known = Object.keys(shape.names);
  return Object.entries(options).flatMap(([name, value]): string[] => {
    const path = `${prefix}${name}`;
    if (!Object.hasOwn(shape.names, name)) {
      const guess = meant(name, known);
      return [
        `unknown option ${path} is ignored` +
          (guess === undefined ? '' : `; did you mean ${prefix}${guess}?`),
      ];
    }
    const nested = shape.nested?.[name];
    return nested !== undefined && typeof value === 'object' && value !== null
      ? unknownOptions(value, nested, `${path}.`)
      : [];
  });
}
