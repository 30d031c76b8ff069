/**
 * The brand every error of this family carries: the kinds of its class chain, most general
 * first. `Symbol.for` makes it the same symbol in every copy of this package, so `instanceof`
 * works when an application ends up with two copies (for example two versions in node_modules).
 */
export const ERROR_BRAND: unique symbol = Symbol.for('partner-apis.error') as never;

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

type InspectFunction = (value: unknown, options?: unknown) => string;

interface ErrorClass {
  readonly kind: string;
}

/**
 * The kinds of the classes in a class chain that declare their own `kind` (the classes of this
 * package, and any subclass that chooses to), most general first. A subclass without its own
 * `kind` (`class MyError extends ApiError {}`) adds nothing: its instances carry the brand of
 * its nearest declared ancestor, and `instanceof MyError` is the ordinary prototype check.
 */
function kindsOf(target: unknown): readonly string[] {
  const kinds: string[] = [];
  let current = target as object | null;
  while (current !== null && current !== Function.prototype) {
    const { kind } = current as Partial<ErrorClass>;
    if (Object.hasOwn(current, 'kind') && typeof kind === 'string') kinds.unshift(kind);
    current = Object.getPrototypeOf(current) as object | null;
  }
  return kinds;
}

/** The brand of a value, when it is an error of this family from any copy of the package. */
function brandOf(value: unknown): readonly unknown[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const brand = (value as { [ERROR_BRAND]?: unknown })[ERROR_BRAND];
  return Array.isArray(brand) ? brand : undefined;
}

/**
 * The base of every error the partner-apis packages throw.
 *
 * `instanceof` is a brand check, so it holds across copies of the package. `toJSON`,
 * `toString` and `util.inspect` show only the fields each class declares safe: never a
 * credential, a request body or a header value.
 *
 * @example
 * try {
 *   await client.getApprovals('100234');
 * } catch (error) {
 *   if (error instanceof PartnerApisError) console.error(JSON.stringify(error));
 *   else throw error;
 * }
 */
export class PartnerApisError extends Error {
  /** The name of this class in the brand; every subclass declares its own. */
  static readonly kind: string = 'PartnerApisError';

  static override [Symbol.hasInstance](value: unknown): boolean {
    // A class that declares its own kind is checked by brand, so copies of the package agree;
    // a subclass that does not (one a user wrote) is checked along the prototype chain.
    if (!Object.hasOwn(this, 'kind'))
      return Function.prototype[Symbol.hasInstance].call(this, value);
    return brandOf(value)?.includes(this.kind) ?? false;
  }

  declare readonly [ERROR_BRAND]: readonly string[];

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // The class being constructed, read through `this` rather than `new.target`: minifiers
    // (terser with `passes: 2`, webpack's production default) may inline a function that is
    // handed `new.target` into one where it is `undefined`.
    const target = this.constructor;
    const kinds = kindsOf(target);
    Object.defineProperty(this, ERROR_BRAND, { value: kinds, enumerable: false });
    const ownKind = Object.hasOwn(target, 'kind');
    Object.defineProperty(this, 'name', {
      value: (ownKind ? undefined : target.name) || (kinds[kinds.length - 1] ?? 'PartnerApisError'),
      enumerable: false,
      configurable: true,
      writable: true,
    });
  }

  /** The fields that describe this error; subclasses add theirs. Safe to log. */
  protected details(): Record<string, unknown> {
    return {};
  }

  /** A plain object for logs: `name`, `message` and the safe fields of the class. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, ...this.details() };
  }

  [INSPECT](_depth: number, options: unknown, inspect: InspectFunction): string {
    const details = Object.fromEntries(
      Object.entries(this.details()).filter(([, value]) => value !== undefined),
    );
    const cause =
      this.cause instanceof Error ? `\n  [cause]: ${this.cause.name}: ${this.cause.message}` : '';
    return `${this.stack ?? `${this.name}: ${this.message}`} ${inspect(details, options)}${cause}`;
  }
}

/**
 * True when `value` is an error of the partner-apis family, from any copy of the package.
 *
 * @example
 * if (isPartnerApisError(error)) logger.warn(error.toJSON());
 */
export function isPartnerApisError(value: unknown): value is PartnerApisError {
  return value instanceof PartnerApisError;
}
