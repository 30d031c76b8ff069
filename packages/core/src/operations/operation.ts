import { ApiError, InvalidArgumentError } from '@partner-apis/errors';
import type { WarningCode } from '../observe/observer.js';
import { isHeaderValue } from './call-options.js';

/**
 * One parameter of an operation as the spec declares it, with the schema constraints a client
 * checks before sending. Generated into each service package's `src/generated/operations.ts`.
 */
export interface ParameterDescription {
  readonly name: string;
  readonly in: 'query' | 'header' | 'path' | 'cookie';
  readonly required: boolean;
  readonly type?: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  readonly format?: string;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly default?: unknown;
  readonly description?: string;
  /**
   * `x-paging`: the parameter carries the page size (`limit`), or the position as a record
   * index (`offset`) or as a page index (`page`); the position's base is its `minimum`.
   */
  readonly paging?: 'limit' | 'offset' | 'page';
  /** `x-sync`: the parameter is the watermark of incremental reads (records changed since). */
  readonly sync?: 'watermark';
  /** `x-tracing`: a header the client sets itself, so callers never pass it. */
  readonly role?: 'request-id' | 'conversation-id';
  /** `x-upstream-gap`: the documents do not state it; its constraints are our assumption. */
  readonly assumed?: boolean;
}

/** How a body is written or read, by its media type. */
export type MediaKind = 'json' | 'form' | 'multipart' | 'text' | 'binary';

/** The request body of an operation. */
export interface BodyDescription {
  readonly required: boolean;
  readonly mediaType: string;
  readonly kind: MediaKind;
  /** The JSON kind of the body's schema, where the spec gives one. */
  readonly type?: 'array' | 'object';
  /** Form fields whose values are files, sent as parts with a file name. */
  readonly files?: readonly string[];
  /** The content type `encoding` gives a multipart field. */
  readonly partTypes?: Readonly<Record<string, string>>;
  /** Form fields holding several values, and the separator their encoding joins them with. */
  readonly separators?: Readonly<Record<string, string>>;
}

/** One argument of an operation's method, in the order callers give them. */
export type ArgumentDescription =
  | { readonly in: 'path'; readonly name: string }
  | { readonly in: 'body' | 'params'; readonly required: boolean };

/** How a paged read (`x-paging`) pages, and where its answer holds the records. */
export interface PagingDescription {
  /** The page size sent when neither the call nor the client gives one. */
  readonly pageSize: number;
  /** `null` when the body is the array of records, else its array property. */
  readonly records: string | null;
  /** Every record is a JSON object. */
  readonly itemType?: 'object';
  /** `x-record-key`: the field that identifies a record, so repeats across pages are dropped. */
  readonly recordKey?: string;
  /** It has a watermark filter and a record key: the resource gets `sync()`. */
  readonly syncable?: boolean;
}

/** A security scheme of the spec, as a client applies it. */
export type SecuritySchemeDescription =
  | { readonly type: 'apiKey'; readonly in: 'header' | 'query' | 'cookie'; readonly name: string }
  | { readonly type: 'http'; readonly scheme: 'basic' | 'bearer' }
  | { readonly type: 'oauth2'; readonly tokenUrl?: string; readonly scopes: readonly string[] };

/** What a client needs at run time about one operation of a spec. */
export interface OperationDescription {
  readonly operationId: string;
  /** The client member it is called through: `<resource>.<verb>()`. */
  readonly resource: string;
  readonly verb: string;
  readonly method: string;
  readonly path: string;
  readonly summary?: string;
  readonly description?: string;
  /** The upstream marks the operation deprecated. */
  readonly deprecated?: boolean;
  /** `x-mcp`: the name of its MCP tool, or `hidden` for none. */
  readonly mcp?: { readonly name?: string; readonly hidden?: boolean };
  /** It may change something on the server: any method but GET, HEAD, OPTIONS and TRACE. */
  readonly write?: boolean;
  /** Its method's arguments in order: path parameters, the body, the object of the others. */
  readonly arguments: readonly ArgumentDescription[];
  readonly parameters: readonly ParameterDescription[];
  readonly body?: BodyDescription;
  readonly response: {
    /** How a 2xx body is read: JSON, text, bytes (a `Blob`), or no body. */
    readonly kind: MediaKind | 'none';
    readonly mediaType?: string;
    /** The JSON kind of a 2xx body, where the spec gives one. */
    readonly type?: 'array' | 'object';
    /** `x-optional-body`: a 2xx may come without a body; the call then gives `{}`. */
    readonly bodyOptional?: boolean;
  };
  readonly paging?: PagingDescription;
  /** The schemes of each security requirement, any one of which will do. */
  readonly security: readonly (readonly string[])[];
}

/** What a client needs at run time about a whole spec, as codegen writes it. */
export interface ServiceDescription {
  readonly operations: Readonly<Record<string, OperationDescription>>;
  readonly securitySchemes: Readonly<Record<string, SecuritySchemeDescription>>;
  /** The headers the client sets itself (`x-tracing`), as the spec names them. */
  readonly tracingHeaders: { readonly requestId?: string; readonly conversationId?: string };
}

/**
 * What to do when a value breaks a constraint the spec marks `x-upstream-gap` (the documents
 * do not state it): `warn` and send it (the default), `refuse` it like a stated constraint, or
 * send it without a word (`off`). Stated constraints are always refused before sending.
 */
export type AssumptionPolicy = 'warn' | 'refuse' | 'off';

/** How one call's parameters are checked, and where what does not fail the call is told. */
export interface ParameterCheck {
  /** The method the caller called, e.g. `locations.list`, for messages. */
  readonly operation: string;
  readonly assumptions: AssumptionPolicy;
  readonly warn: (message: string, code?: WarningCode) => void;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** `YYYY-MM-DD` of a real calendar day (no 2026-02-30). */
function isCalendarDay(value: string): boolean {
  const match = DAY.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

function shown(value: unknown): string {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid Date' : 'a Date';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  return typeof value === 'object' && value !== null ? typeof value : String(value);
}

/** A `Date` in the form a `date` or `date-time` parameter takes; the value itself otherwise. */
function fromDate(parameter: ParameterDescription, value: unknown): unknown {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) return value;
  if (parameter.format === 'date') return value.toISOString().slice(0, 10);
  if (parameter.format === 'date-time') return value.toISOString();
  return value;
}

/** The compiled `pattern` of each parameter, so a call does not compile it again. */
const PATTERNS = new Map<string, RegExp>();

function patternOf(pattern: string): RegExp {
  let compiled = PATTERNS.get(pattern);
  if (compiled === undefined) {
    compiled = new RegExp(pattern, 'u');
    PATTERNS.set(pattern, compiled);
  }
  return compiled;
}

/** Why `value` breaks the declared constraints of `parameter`, or `undefined`. */
function constraintProblem(parameter: ParameterDescription, value: unknown): string | undefined {
  const p = parameter;
  if (p.enum !== undefined && !p.enum.includes(value)) {
    return `must be one of ${p.enum.join(', ')} (got ${shown(value)})`;
  }
  if (p.type === 'integer' || p.type === 'number') {
    const integer = p.type === 'integer';
    if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      (integer && !Number.isInteger(value))
    ) {
      return `must be ${integer ? 'an integer' : 'a number'} (got ${shown(value)})`;
    }
    const below = p.minimum !== undefined && value < p.minimum;
    const above = p.maximum !== undefined && value > p.maximum;
    if (below || above) {
      const range =
        p.maximum === undefined
          ? `of at least ${p.minimum}`
          : p.minimum === undefined
            ? `of at most ${p.maximum}`
            : `from ${p.minimum} to ${p.maximum}`;
      return `must be ${integer ? 'an integer' : 'a number'} ${range} (got ${value})`;
    }
    if (p.exclusiveMinimum !== undefined && value <= p.exclusiveMinimum) {
      return `must be greater than ${p.exclusiveMinimum} (got ${value})`;
    }
    if (p.exclusiveMaximum !== undefined && value >= p.exclusiveMaximum) {
      return `must be less than ${p.exclusiveMaximum} (got ${value})`;
    }
    return undefined;
  }
  if (p.type === 'boolean') {
    return typeof value === 'boolean' ? undefined : `must be true or false (got ${shown(value)})`;
  }
  if (p.type === 'string') {
    if (typeof value !== 'string') {
      const expected =
        p.format === 'date'
          ? 'a Date or a YYYY-MM-DD day'
          : p.format === 'date-time'
            ? 'a Date or an RFC 3339 date-time such as 2026-03-01T00:00:00Z'
            : 'a string';
      return `must be ${expected} (got ${shown(value)})`;
    }
    if (p.minLength !== undefined && value.length < p.minLength) {
      return p.minLength === 1
        ? 'must be a non-empty string'
        : `must be at least ${p.minLength} characters long`;
    }
    if (p.maxLength !== undefined && value.length > p.maxLength) {
      return `must be at most ${p.maxLength} characters long`;
    }
    if (p.format === 'date' && !isCalendarDay(value)) {
      return `must be a Date or a YYYY-MM-DD day (got ${shown(value)})`;
    }
    if (p.format === 'date-time' && (!DATE_TIME.test(value) || Number.isNaN(Date.parse(value)))) {
      return `must be a Date or an RFC 3339 date-time such as 2026-03-01T00:00:00Z (got ${shown(value)})`;
    }
    if (p.pattern !== undefined && !patternOf(p.pattern).test(value)) {
      return `must match ${p.pattern} (got ${shown(value)})`;
    }
  }
  return undefined;
}

/** Values no server could be sent as a parameter, whatever the spec assumes. */
function unsendable(value: unknown): boolean {
  const kind = typeof value;
  if (kind === 'string' || kind === 'boolean') return false;
  if (kind === 'number') return !Number.isFinite(value);
  return !(value instanceof Date) || Number.isNaN(value.getTime());
}

/**
 * Checks one parameter value against its spec before sending and gives the value to send
 * (a `Date` becomes the day or date-time the parameter takes). A stated constraint that fails
 * is an `InvalidArgumentError` naming `argument`; an assumed one (`x-upstream-gap`) is
 * reported as `check.assumptions` says, and the value is sent.
 */
export function checkParameter(
  parameter: ParameterDescription,
  argument: string,
  raw: unknown,
  check: ParameterCheck,
): unknown {
  const value = fromDate(parameter, raw);
  if (unsendable(value)) {
    throw new InvalidArgumentError(
      argument,
      constraintProblem({ ...parameter, enum: undefined }, value) ??
        `cannot be sent as a parameter (got ${shown(raw)})`,
      check.operation,
    );
  }
  const problem = constraintProblem(parameter, value);
  if (problem === undefined) return value;
  if (!parameter.assumed || check.assumptions === 'refuse') {
    throw new InvalidArgumentError(argument, problem, check.operation);
  }
  if (check.assumptions === 'warn') {
    check.warn(
      `${check.operation}: ${argument} ${problem}; sent anyway, since the spec only assumes ` +
        'this constraint (x-upstream-gap). Set assumptions: "off" to silence this warning.',
    );
  }
  return value;
}

/**
 * Checks the params object of one call against the query, header and cookie parameters the
 * operation declares (but those the client sets itself): an unknown name, a missing required
 * parameter or a bad value is an `InvalidArgumentError` naming it (under `prefix`, e.g.
 * `options.`), before any request; `otherOptions` are named in the message as the other
 * things the caller may pass. Gives the values to send, by the spec's names.
 */
export function checkParams(
  operation: OperationDescription,
  given: Readonly<Record<string, unknown>>,
  prefix: string,
  check: ParameterCheck,
  otherOptions: readonly string[] = [],
): Record<string, unknown> {
  const declared = operation.parameters.filter((p) => p.in !== 'path' && p.role === undefined);
  for (const key of Object.keys(given)) {
    if (given[key] !== undefined && !declared.some((p) => p.name === key)) {
      const names = [...declared.map((p) => p.name), ...otherOptions];
      throw new InvalidArgumentError(
        `${prefix}${key}`,
        `is not a parameter of ${check.operation} (use ${names.join(', ')})`,
        check.operation,
      );
    }
  }
  const params: Record<string, unknown> = {};
  for (const parameter of declared) {
    const value = given[parameter.name];
    const argument = `${prefix}${parameter.name}`;
    if (value === undefined) {
      if (parameter.required) {
        const problem = 'is required';
        if (!parameter.assumed || check.assumptions === 'refuse') {
          throw new InvalidArgumentError(argument, problem, check.operation);
        }
        if (check.assumptions === 'warn') check.warn(`${check.operation}: ${argument} ${problem}`);
      }
      continue;
    }
    const checked = checkParameter(parameter, argument, value, check);
    if (parameter.in !== 'query' && !isHeaderValue(String(checked))) {
      throw new InvalidArgumentError(
        argument,
        `cannot be sent in a ${parameter.in}: it must be Latin-1 text without line breaks`,
        check.operation,
      );
    }
    params[parameter.name] = checked;
  }
  return params;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** True for a JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The request of a call that answered, for an error about its body. */
export interface AnsweredCall {
  readonly operation: string;
  readonly write: boolean | undefined;
  readonly status: number;
}

/**
 * An `ApiError` (`unexpected_response`) for a 2xx body that is not what the spec promises; for
 * a write the message says it may have taken effect, since the service did answer 2xx.
 */
function unexpectedBody(call: AnsweredCall, problem: string): ApiError {
  return new ApiError({
    status: call.status,
    code: 'unexpected_response',
    message:
      `${call.operation} answered ${call.status} with ${problem}` +
      (call.write ? '; the request may have taken effect' : ''),
  });
}

/**
 * Checks that a 2xx body is of the JSON kind the spec gives (an object, an array); a body of
 * another kind is an `ApiError` rather than a value typed as something it is not.
 */
export function checkBodyKind(
  operation: OperationDescription,
  body: unknown,
  call: AnsweredCall,
): void {
  const expected = operation.response.type;
  if (expected === undefined || body === undefined) return;
  const ok = expected === 'array' ? Array.isArray(body) : isRecord(body);
  if (!ok)
    throw unexpectedBody(
      call,
      `${kindOf(body)} where the spec promises ${expected === 'array' ? 'an array' : 'an object'}`,
    );
}

/**
 * The records of a paged answer: the body when it is an array, else the envelope's array
 * property the spec names. An `ApiError` when the answer has none, or when a record is not an
 * object although the spec's records are.
 */
export function recordsOf(
  operation: OperationDescription,
  body: unknown,
  call: AnsweredCall,
): { records: unknown[]; envelope: Record<string, unknown> | undefined } {
  const property = operation.paging?.records ?? null;
  let records: unknown;
  let envelope: Record<string, unknown> | undefined;
  if (property === null) {
    records = body;
  } else if (isRecord(body)) {
    records = body[property];
    envelope = body;
  } else {
    throw unexpectedBody(
      call,
      `${kindOf(body)} where the spec promises an object with ${property}`,
    );
  }
  if (!Array.isArray(records)) {
    const where = property === null ? '' : ` in ${property}`;
    throw unexpectedBody(
      call,
      `${kindOf(records)}${where} where the spec promises the array of records`,
    );
  }
  if (operation.paging?.itemType === 'object') {
    const bad = records.findIndex((record) => !isRecord(record));
    if (bad !== -1) {
      throw unexpectedBody(call, `record ${bad} being ${kindOf(records[bad])}, not an object`);
    }
  }
  return { records, envelope };
}
