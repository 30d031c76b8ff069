// What a README example imports from `vitest` and `@partner-apis/sandbox`, for runtimes where
// neither runs (Bun, Deno, workerd): a test list, the matchers the examples use, and a sandbox
// that is already running (started by the Node side, which passes its addresses in). Only web
// globals are used, so the same file runs on every runtime.

type Hook = () => unknown;

interface Registered {
  name: string;
  run: Hook;
}

const tests: Registered[] = [];
const before: Hook[] = [];
const after: Hook[] = [];

/** Registers a test, as vitest's `test` does. */
export function test(name: string, run: Hook): void {
  tests.push({ name, run });
}

export function beforeAll(hook: Hook): void {
  before.push(hook);
}

export function afterAll(hook: Hook): void {
  after.push(hook);
}

/** What `startSandbox()` returns here: the running sandbox's addresses and fixtures. */
export interface SandboxState {
  urls: Record<string, string>;
  credentials: Record<string, unknown>;
  fixtures: Record<string, unknown>;
}

let sandbox: SandboxState | undefined;

/** Sets the sandbox the example's `startSandbox()` gets. */
export function useSandbox(state: SandboxState): void {
  sandbox = state;
}

export async function startSandbox(): Promise<SandboxState & { close(): Promise<void> }> {
  if (sandbox === undefined) throw new Error('useSandbox was not called before the tests ran');
  // The Node side owns the sandbox and stops it.
  return { ...sandbox, close: async () => {} };
}

function show(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** vitest's `toEqual`: deep equality that ignores properties whose value is undefined. */
function equals(actual: unknown, expected: unknown): boolean {
  if (Object.is(actual, expected)) return true;
  if (actual instanceof Date && expected instanceof Date) {
    return actual.getTime() === expected.getTime();
  }
  if (Array.isArray(actual) || Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      Array.isArray(expected) &&
      actual.length === expected.length &&
      actual.every((item, index) => equals(item, expected[index]))
    );
  }
  if (!isObject(actual) || !isObject(expected)) return false;
  const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
  return [...keys].every((key) => equals(actual[key], expected[key]));
}

/** vitest's `toMatchObject`: every property of `expected` is in `actual`, recursively. */
function matchesObject(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => matchesObject(actual[index], item))
    );
  }
  if (!isObject(expected) || expected instanceof Date) return equals(actual, expected);
  if (!isObject(actual)) return false;
  return Object.keys(expected).every((key) => matchesObject(actual[key], expected[key]));
}

type Check = (actual: unknown, expected?: unknown) => [pass: boolean, expectation: string];

const matchers: Record<string, Check> = {
  toBe: (actual, expected) => [Object.is(actual, expected), `to be ${show(expected)}`],
  toEqual: (actual, expected) => [equals(actual, expected), `to equal ${show(expected)}`],
  toMatchObject: (actual, expected) => [
    matchesObject(actual, expected),
    `to match ${show(expected)}`,
  ],
  toMatch: (actual, expected) => [
    typeof actual === 'string' &&
      (expected instanceof RegExp ? expected.test(actual) : actual.includes(String(expected))),
    `to match ${String(expected)}`,
  ],
  toBeInstanceOf: (actual, expected) => [
    typeof expected === 'function' && actual instanceof expected,
    `to be an instance of ${(expected as { name?: string }).name}`,
  ],
  toBeTruthy: (actual) => [Boolean(actual), 'to be truthy'],
  toBeGreaterThan: (actual, expected) => [
    typeof actual === 'number' && actual > Number(expected),
    `to be greater than ${String(expected)}`,
  ],
  toHaveLength: (actual, expected) => [
    isObject(actual) && actual.length === expected,
    `to have length ${String(expected)}`,
  ],
};

type Assertion = Record<string, (expected?: unknown) => unknown>;

function assertion(
  actual: () => unknown,
  negated: boolean,
  label: string,
  settles = false,
): Assertion {
  return new Proxy({} as Assertion, {
    get(_target, property) {
      if (property === 'not') return assertion(actual, !negated, `${label}.not`, settles);
      if (property === 'resolves') {
        return assertion(async () => await actual(), negated, `${label}.resolves`, true);
      }
      if (property === 'rejects') {
        return assertion(
          async () => {
            try {
              await actual();
            } catch (error) {
              return error;
            }
            throw new Error(`${label}.rejects: the promise resolved`);
          },
          negated,
          `${label}.rejects`,
          true,
        );
      }
      const check = matchers[String(property)];
      if (check === undefined) {
        throw new Error(`The README harness has no matcher ${String(property)}: add it there`);
      }
      return (expected?: unknown) => {
        const judge = (value: unknown) => {
          const [pass, expectation] = check(value, expected);
          if (pass === negated) {
            throw new Error(`expected ${show(value)} ${negated ? 'not ' : ''}${expectation}`);
          }
        };
        return settles ? (actual() as Promise<unknown>).then(judge) : judge(actual());
      };
    },
  });
}

/** vitest's `expect`, with the matchers the README examples use. */
export function expect(actual: unknown): Assertion {
  return assertion(() => actual, false, 'expect');
}

/** Runs the registered tests in order and prints a vitest-like summary; never throws. */
export async function runReadmeTests(): Promise<{ passed: number; failed: number }> {
  let passed = 0;
  let failed = 0;
  const fail = (what: string, error: unknown) => {
    failed += 1;
    console.log(`✗ ${what}: ${show(error)}`);
  };
  try {
    for (const hook of before) await hook();
    for (const { name, run } of tests) {
      try {
        await run();
        passed += 1;
        console.log(`✓ ${name}`);
      } catch (error) {
        fail(name, error);
      }
    }
  } catch (error) {
    fail('beforeAll', error);
  } finally {
    for (const hook of after) await hook();
  }
  console.log(`${passed} passed, ${failed} failed`);
  return { passed, failed };
}
