import { ConfigurationError, InvalidArgumentError } from '@partner-apis/errors';
import { apiPromise, type ApiPromise, type WithResponse } from '../operations/api-promise.js';
import { checkCallOptions, type CallOptions } from '../operations/call-options.js';
import {
  checkQuery,
  recordsOf,
  type OperationDescription,
  type ParameterCheck,
  type ParameterDescription,
} from '../operations/operation.js';
import { paginate, type Paginated } from './paginate.js';
import { withData } from '../operations/call-answer.js';
import type { ResourceClient } from '../operations/resource-client.js';

/**
 * Pages `list` requests at once by default. Four keeps a slow link busy (about 4× the
 * throughput of one page at a time) while asking little of a service that publishes no rate
 * limit. Not a fact of any upstream: a choice of this client.
 */
export const DEFAULT_PREFETCH = 4;
/** The most pages `list` keeps in flight, so a typo cannot flood a service. */
export const MAX_PREFETCH = 32;

/** The options of every call, beside the query parameters. */
const CALL_OPTIONS = ['signal', 'conversationId', 'timeout', 'retry'] as const;
/** The options of `list`, beside the query parameters. */
const LIST_OPTIONS = [...CALL_OPTIONS, 'pageSize', 'prefetch', 'startOffset'] as const;

/** The client-wide paging defaults; each `list` call may override them. */
export interface PagingOptions {
  /** Records per request of `list`; the spec's default and maximum of `limit` apply. */
  pageSize?: number | undefined;
  /** Requests `list` keeps in flight, 1–32; 4 by default. */
  prefetch?: number | undefined;
}

/** What `list()` takes beside an operation's filters: paging, where to start, and the call's options. */
export interface ListCallOptions extends PagingOptions, CallOptions {
  /** The position of the first record, e.g. to resume; 0 by default. */
  startOffset?: number | undefined;
}

/** The option names of a client that lists records (`pageSize`, `prefetch`). */
export const PAGING_OPTION_NAMES: Record<keyof PagingOptions, true> = {
  pageSize: true,
  prefetch: true,
};

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type Parameter<D extends OperationDescription> = D['parameters'][number];
/** Names of the operation's `date` and `date-time` parameters, which also take a `Date`. */
export type DateNames<D extends OperationDescription> = Extract<
  Parameter<D>,
  { readonly format: 'date' | 'date-time' }
>['name'];
/** Names of the parameters that carry the page size and position (`x-paging`). */
type PagingNames<D extends OperationDescription> = Extract<
  Parameter<D>,
  { readonly paging: string }
>['name'];
/** The query `Q` with a `Date` accepted for each parameter named in `Names`. */
export type WithDates<Q, Names> = { [K in keyof Q]: K extends Names ? Q[K] | Date : Q[K] };

type ValueOf<P> = P extends { readonly enum: readonly (infer V)[] }
  ? V
  : P extends { readonly type: 'integer' | 'number' }
    ? number
    : P extends { readonly type: 'boolean' }
      ? boolean
      : string;
type QueryParameter<D extends OperationDescription> = Extract<
  Parameter<D>,
  { readonly in: 'query' }
>;
/** The query an operation description declares, for callers without generated types. */
export type DescribedQuery<D extends OperationDescription> = Simplify<
  {
    [
      P in QueryParameter<D> as P extends { readonly required: true } ? P['name'] : never
    ]: ValueOf<P>;
  } & {
    [
      P in QueryParameter<D> as P extends { readonly required: true } ? never : P['name']
    ]?: ValueOf<P>;
  }
>;

/** The JSON body of an operation's 2xx answer, from openapi-typescript's `operations`. */
export type ResponseBodyOf<Op> = Op extends { responses: infer R }
  ? {
      [K in keyof R]: K extends 200 | 201 | 202 | 203 | 206 | '2XX'
        ? R[K] extends { content: { 'application/json': infer B } }
          ? B
          : never
        : never;
    }[keyof R]
  : never;

/**
 * The envelope object of a paged read's answer (`never` when the answer is the bare array), so
 * `page().envelope` is typed by the spec.
 */
export type EnvelopeOf<Op> = [ResponseBodyOf<Op>] extends [readonly unknown[]]
  ? never
  : ResponseBodyOf<Op>;

/** The query of an operation of openapi-typescript's `operations`. */
export type QueryOf<Op> = Op extends { parameters: { query?: infer Q } }
  ? [NonNullable<Q>] extends [never]
    ? object
    : NonNullable<Q>
  : object;

/** Options of `list`: every query parameter of the operation but the paging ones, and paging. */
export type ListOptions<
  Q = object,
  D extends OperationDescription = OperationDescription,
> = Simplify<
  Omit<WithDates<Q, DateNames<D>>, PagingNames<D>> &
    PagingOptions &
    CallOptions & {
      /** The position of the first record, e.g. to resume; 0 by default. */
      startOffset?: number | undefined;
    }
>;

/** Options of `page`: every query parameter of the operation, paging ones included. */
export type PageOptions<
  Q = object,
  D extends OperationDescription = OperationDescription,
> = Simplify<WithDates<Q, DateNames<D>> & CallOptions>;

/** The records of one page; `envelope` holds the answer's other fields when it is an object. */
export type RecordsPage<T, E = never> = T[] & {
  readonly envelope?: [E] extends [never] ? undefined : E;
};

/** An offset-paged collection of a service. */
export interface OffsetCollection<
  T,
  Q = object,
  D extends OperationDescription = OperationDescription,
  E = never,
> {
  /**
   * Every record, in order and once each, fetching `prefetch` pages at a time; `.pages()` gives
   * the pages. Leaving the loop early aborts the requests in flight.
   */
  list(options?: ListOptions<Q, D>): Paginated<T>;
  /** One page: up to `limit` records from `offset`, and any other query parameter. */
  page(options?: PageOptions<Q, D>): ApiPromise<RecordsPage<T, E>>;
}

function integerIn(
  fail: (problem: string) => Error,
  value: unknown,
  min: number,
  max: number,
): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw fail(`must be an integer ${range} (got ${String(value)})`);
  }
  return value;
}

function pagingParameter(operation: OperationDescription, roles: readonly string[]) {
  const parameter = operation.parameters.find(
    (p) => p.in === 'query' && p.paging !== undefined && roles.includes(p.paging),
  );
  if (parameter === undefined) {
    throw new Error(
      `${operation.operationId} declares no x-paging: ${roles.join(' or ')} query parameter`,
    );
  }
  return parameter;
}

/**
 * The wire value of a position given as a record index from 0: the spec's position parameter
 * is a record index (`x-paging: offset`) or a page index (`x-paging: page`), counted from its
 * schema's `minimum`.
 */
function wirePosition(position: ParameterDescription, recordIndex: number, pageSize: number) {
  const base = position.minimum ?? 0;
  return position.paging === 'page' ? base + recordIndex / pageSize : base + recordIndex;
}

/** The page sizes a paged read allows, from its `limit` parameter, and the one it sends unasked. */
function pageSizes(operation: OperationDescription, limit: ParameterDescription) {
  if (operation.pageSize === undefined) {
    throw new Error(`${operation.operationId} has no pageSize: regenerate its operation table`);
  }
  const min = Math.max(1, limit.minimum ?? 1);
  const max = limit.maximum ?? Number.MAX_SAFE_INTEGER;
  return { min, max, fallback: operation.pageSize };
}

/** What a collection knows of its paging from the spec and the client's defaults. */
interface CollectionPaging {
  readonly limit: ParameterDescription;
  readonly position: ParameterDescription;
  readonly sizes: { min: number; max: number };
  readonly pageSize: number;
  readonly prefetch: number;
}

function resolveCollectionPaging(
  operation: OperationDescription,
  defaults: PagingOptions,
): CollectionPaging {
  const limit = pagingParameter(operation, ['limit']);
  const sizes = pageSizes(operation, limit);
  const configFail = (option: string) => (problem: string) =>
    new ConfigurationError(option, problem);
  return {
    limit,
    position: pagingParameter(operation, ['offset', 'page']),
    sizes,
    pageSize:
      defaults.pageSize === undefined
        ? sizes.fallback
        : integerIn(configFail('pageSize'), defaults.pageSize, sizes.min, sizes.max),
    prefetch:
      defaults.prefetch === undefined
        ? DEFAULT_PREFETCH
        : integerIn(configFail('prefetch'), defaults.prefetch, 1, MAX_PREFETCH),
  };
}

/**
 * The paging of one `list` call, its options over the collection's defaults, checked; and the
 * call's other options.
 */
function resolveListPaging(
  options: Record<string, unknown>,
  paging: CollectionPaging,
  listName: string,
): [{ pageSize: number; prefetch: number; startOffset: number }, Record<string, unknown>] {
  const { pageSize: size, prefetch: ahead, startOffset: start, ...given } = options;
  const fail = (argument: string) => (problem: string) =>
    new InvalidArgumentError(argument, problem, listName);
  for (const name of [paging.limit.name, paging.position.name]) {
    if (given[name] !== undefined) {
      throw new InvalidArgumentError(
        `options.${name}`,
        `is set by list; use pageSize and startOffset (or page())`,
        listName,
      );
    }
  }
  const { min, max } = paging.sizes;
  const pageSize =
    size === undefined ? paging.pageSize : integerIn(fail('options.pageSize'), size, min, max);
  const prefetch =
    ahead === undefined
      ? paging.prefetch
      : integerIn(fail('options.prefetch'), ahead, 1, MAX_PREFETCH);
  const startOffset =
    start === undefined
      ? 0
      : integerIn(fail('options.startOffset'), start, 0, Number.MAX_SAFE_INTEGER);
  if (paging.position.paging === 'page' && startOffset % pageSize !== 0) {
    throw new InvalidArgumentError(
      'options.startOffset',
      `must be a multiple of pageSize (${pageSize}): the service pages by page index`,
      listName,
    );
  }
  return [{ pageSize, prefetch, startOffset }, given];
}

/**
 * One offset-paged collection of a service, built from its operation's description: the
 * page-size limit and default come from the spec's `limit` parameter, every other query
 * parameter the operation declares is accepted, checked before sending and sent on every page,
 * and the records are found where the spec's answer holds them. A bad client default is a
 * `ConfigurationError`; a bad call argument an `InvalidArgumentError` naming it, before any
 * request.
 *
 * @example
 * const locations = createOffsetCollection<Location>(client, listLocations, 'locations', options);
 * for await (const location of locations.list({ modifiedSince: '2026-01-31' })) {
 *   console.log(location.locationId);
 * }
 * const firstTen = await locations.page({ limit: 10 });
 */
export function createOffsetCollection<
  T = Record<string, unknown>,
  const D extends OperationDescription = OperationDescription,
  Q = DescribedQuery<D>,
  E = never,
>(
  client: ResourceClient,
  operation: D,
  name: string,
  defaults: PagingOptions = {},
  path?: Readonly<Record<string, unknown>>,
): OffsetCollection<T, Q, D, E> {
  const collection: Collection = {
    client,
    operation,
    path,
    paging: resolveCollectionPaging(operation, defaults),
  };
  return {
    list: (options) => listRecords<T>(collection, options, `${name}.list`),
    page: (options) => apiPromise(readPage<T, E>(collection, options, `${name}.page`)),
  };
}

/** One collection, as its `list` and `page` calls share it. */
interface Collection {
  readonly client: ResourceClient;
  readonly operation: OperationDescription;
  readonly path: Readonly<Record<string, unknown>> | undefined;
  readonly paging: CollectionPaging;
}

function checkOf(client: ResourceClient, callName: string): ParameterCheck {
  return { operation: callName, assumptions: client.assumptions, warn: client.warn };
}

/** One page's answer, and the records and envelope the spec places in it. */
async function fetchRecords(
  { client, operation, path }: Collection,
  query: Record<string, unknown>,
  callOptions: CallOptions,
  callName: string,
  checked = false,
) {
  const result = await client.call(operation, { path, query, checked }, callOptions, callName);
  const answered = { operation: callName, method: operation.method, status: result.status };
  return { ...recordsOf(operation, result.data, answered), result };
}

function listRecords<T>(collection: Collection, options: unknown, listName: string): Paginated<T> {
  const { client, operation, paging } = collection;
  const o = checkCallOptions(options as CallOptions, listName) as Record<string, unknown>;
  const [listPaging, rest] = resolveListPaging(o, paging, listName);
  const { signal, conversationId, timeout, retry, ...given } = rest;
  const query = checkQuery(operation, given, 'options.', checkOf(client, listName), LIST_OPTIONS);
  // One conversation id covers every page of the iteration, where the operation has one.
  const callOptions = {
    conversationId: (conversationId as string | undefined) ?? globalThis.crypto.randomUUID(),
    timeout,
    retry,
  } as CallOptions;
  const { recordKey } = operation.response;
  const { limit: limitParameter, position } = paging;
  return paginate<T>({
    ...listPaging,
    wholePages: position.paging === 'page',
    signal: signal as AbortSignal | undefined,
    recordKey:
      recordKey === undefined
        ? undefined
        : (record) => (record as Record<string, unknown>)[recordKey],
    onWarning: (message) => client.warn(`${listName}: ${message}`),
    fetchPage: async ({ offset, limit, signal }) => {
      const pageQuery = {
        ...query,
        [limitParameter.name]: limit,
        [position.name]: wirePosition(position, offset, limit),
      };
      // Checked once for the whole listing, above.
      const answer = await fetchRecords(
        collection,
        pageQuery,
        { ...callOptions, signal },
        listName,
        true,
      );
      return { records: answer.records as T[], envelope: answer.envelope };
    },
  });
}

async function readPage<T, E>(
  collection: Collection,
  options: unknown,
  pageName: string,
): Promise<WithResponse<RecordsPage<T, E>>> {
  const { client, operation, paging } = collection;
  const o = checkCallOptions(options as CallOptions, pageName) as Record<string, unknown>;
  const { signal, conversationId, timeout, retry, ...given } = o;
  const limitName = paging.limit.name;
  const query = checkQuery(
    operation,
    { ...given, [limitName]: given[limitName] ?? paging.pageSize },
    'options.',
    checkOf(client, pageName),
    CALL_OPTIONS,
  );
  const callOptions = { signal, conversationId, timeout, retry } as CallOptions;
  const { records, envelope, result } = await fetchRecords(
    collection,
    query,
    callOptions,
    pageName,
  );
  const page = records as RecordsPage<T, E>;
  if (envelope !== undefined) {
    Object.defineProperty(page, 'envelope', { value: envelope, enumerable: false });
  }
  return withData(result, page);
}
