import { InvalidArgumentError } from '@partner-apis/errors';
import { number, type OptionFailure } from '../pipeline/options.js';
import { apiPromise, type ApiPromise, type WithResponse } from '../operations/api-promise.js';
import {
  CALL_OPTION_NAMES,
  checkCallOptions,
  type CallOptions,
} from '../operations/call-options.js';
import {
  checkParams,
  recordsOf,
  type OperationDescription,
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

/** The names `list()` takes beside the filters; `page()` takes the call options'. */
const LIST_OPTION_NAMES = [
  ...Object.keys(CALL_OPTION_NAMES.names),
  'pageSize',
  'prefetch',
  'startOffset',
];

/** The records of one page; `envelope` holds the answer's other fields when it is an object. */
export type RecordsPage<T, E = never> = T[] & {
  readonly envelope?: [E] extends [never] ? undefined : E;
};

/** An offset-paged collection: `list()` every record, `page()` one page. */
export interface OffsetCollection<T = Record<string, unknown>> {
  /**
   * Every record, in order and once each, fetching `prefetch` pages at a time; `.pages()` gives
   * the pages. Leaving the loop early aborts the requests in flight.
   */
  list(options?: ListCallOptions & Record<string, unknown>): Paginated<T>;
  /** One page: up to `limit` records from `offset`, and any other parameter. */
  page(options?: CallOptions & Record<string, unknown>): ApiPromise<RecordsPage<T>>;
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

/** What a collection knows of its paging from the spec and the client's defaults. */
interface CollectionPaging {
  readonly limit: ParameterDescription;
  readonly position: ParameterDescription;
  readonly pageSize: number;
  readonly prefetch: number;
}

/**
 * `pageSize` and `prefetch` of `given` over `fallback`: a page size in the range of the spec's
 * `limit`, requests in flight 1–32. A client's defaults and a call's options, checked alike.
 */
function pagingOf(
  given: PagingOptions,
  fallback: Omit<CollectionPaging, 'position'>,
  fail?: OptionFailure,
) {
  const { minimum, maximum } = fallback.limit;
  return {
    pageSize: number(
      'pageSize',
      given.pageSize,
      { fallback: fallback.pageSize, min: Math.max(1, minimum ?? 1), max: maximum, integer: true },
      fail,
    ),
    prefetch: number(
      'prefetch',
      given.prefetch,
      { fallback: fallback.prefetch, min: 1, max: MAX_PREFETCH, integer: true },
      fail,
    ),
  };
}

function resolveCollectionPaging(
  operation: OperationDescription,
  defaults: PagingOptions,
): CollectionPaging {
  if (operation.paging === undefined) {
    throw new Error(`${operation.operationId} is not a paged read: its table has no paging`);
  }
  const limit = pagingParameter(operation, ['limit']);
  const spec = { limit, pageSize: operation.paging.pageSize, prefetch: DEFAULT_PREFETCH };
  return {
    ...spec,
    position: pagingParameter(operation, ['offset', 'page']),
    ...pagingOf(defaults, spec),
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
  const { pageSize, prefetch, startOffset: start, ...given } = options;
  const fail = (option: string, problem: string) =>
    new InvalidArgumentError(`options.${option}`, problem, listName);
  for (const name of [paging.limit.name, paging.position.name]) {
    if (given[name] !== undefined) {
      throw new InvalidArgumentError(
        `options.${name}`,
        `is set by list; use pageSize and startOffset (or page())`,
        listName,
      );
    }
  }
  const sizes = pagingOf({ pageSize, prefetch } as PagingOptions, paging, fail);
  const rule = { fallback: 0, min: 0, integer: true };
  const startOffset = number('startOffset', start, rule, fail);
  if (paging.position.paging === 'page' && startOffset % sizes.pageSize !== 0) {
    throw new InvalidArgumentError(
      'options.startOffset',
      `must be a multiple of pageSize (${sizes.pageSize}): the service pages by page index`,
      listName,
    );
  }
  return [{ ...sizes, startOffset }, given];
}

/**
 * One offset-paged collection of a service, built from its operation's description: the
 * page-size limit and default come from the spec's `limit` parameter, every other parameter the
 * operation declares is accepted, checked before sending and sent on every page, and the
 * records are found where the spec's answer holds them. A bad client default is a
 * `ConfigurationError`; a bad call argument an `InvalidArgumentError` naming it, before any
 * request.
 */
export function createOffsetCollection<T = Record<string, unknown>>(
  client: ResourceClient,
  operation: OperationDescription,
  defaults: PagingOptions = {},
  path?: Readonly<Record<string, unknown>>,
): OffsetCollection<T> {
  const collection: Collection = {
    client,
    operation,
    path,
    paging: resolveCollectionPaging(operation, defaults),
  };
  const name = operation.resource;
  return {
    list: (options) => listRecords<T>(collection, options, `${name}.list`),
    page: (options) => apiPromise(readPage<T>(collection, options, `${name}.page`)),
  };
}

/** One collection, as its `list` and `page` calls share it. */
interface Collection {
  readonly client: ResourceClient;
  readonly operation: OperationDescription;
  readonly path: Readonly<Record<string, unknown>> | undefined;
  readonly paging: CollectionPaging;
}

/** The call options of `list` and `page`, checked, and the params beside them. */
function splitOptions(options: unknown, callName: string) {
  const { signal, conversationId, timeout, retry, ...given } = checkCallOptions(
    options as CallOptions,
    callName,
  ) as Record<string, unknown>;
  return { callOptions: { signal, conversationId, timeout, retry } as CallOptions, given };
}

/** One page's answer, and the records and envelope the spec places in it; params checked. */
async function fetchRecords(
  { client, operation, path }: Collection,
  params: Record<string, unknown>,
  callOptions: CallOptions,
  callName: string,
) {
  const args = { path, params, checked: true };
  const result = await client.call(operation, args, callOptions, callName);
  const answered = { operation: callName, write: operation.write, status: result.status };
  return { ...recordsOf(operation, result.data, answered), result };
}

function listRecords<T>(collection: Collection, options: unknown, listName: string): Paginated<T> {
  const { client, operation, paging } = collection;
  const { callOptions, given: all } = splitOptions(options, listName);
  const [listPaging, given] = resolveListPaging(all, paging, listName);
  const check = { operation: listName, assumptions: client.assumptions, warn: client.warn };
  const params = checkParams(operation, given, 'options.', check, LIST_OPTION_NAMES);
  // One conversation id covers every page of the iteration, where the operation has one.
  const conversationId = callOptions.conversationId ?? globalThis.crypto.randomUUID();
  const recordKey = operation.paging?.recordKey;
  const { limit: limitParameter, position } = paging;
  return paginate<T>({
    ...listPaging,
    wholePages: position.paging === 'page',
    signal: callOptions.signal,
    recordKey:
      recordKey === undefined
        ? undefined
        : (record) => (record as Record<string, unknown>)[recordKey],
    onWarning: (message) => client.warn(`${listName}: ${message}`),
    fetchPage: async ({ offset, limit, signal }) => {
      const pageParams = {
        ...params,
        [limitParameter.name]: limit,
        [position.name]: wirePosition(position, offset, limit),
      };
      const page = { ...callOptions, conversationId, signal };
      const answer = await fetchRecords(collection, pageParams, page, listName);
      return { records: answer.records as T[], envelope: answer.envelope };
    },
  });
}

async function readPage<T>(
  collection: Collection,
  options: unknown,
  pageName: string,
): Promise<WithResponse<RecordsPage<T>>> {
  const { client, operation, paging } = collection;
  const { callOptions, given } = splitOptions(options, pageName);
  const limitName = paging.limit.name;
  const params = checkParams(
    operation,
    { ...given, [limitName]: given[limitName] ?? paging.pageSize },
    'options.',
    { operation: pageName, assumptions: client.assumptions, warn: client.warn },
    Object.keys(CALL_OPTION_NAMES.names),
  );
  const { records, envelope, result } = await fetchRecords(
    collection,
    params,
    callOptions,
    pageName,
  );
  const page = records as RecordsPage<T>;
  if (envelope !== undefined) {
    Object.defineProperty(page, 'envelope', { value: envelope, enumerable: false });
  }
  return withData(result, page);
}
