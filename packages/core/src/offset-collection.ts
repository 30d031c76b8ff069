import { ApiError, ConfigurationError, InvalidArgumentError } from '@partner-apis/errors';
import { checkCallOptions } from './call-options.js';
import { paginate, type Paginated } from './paginate.js';

/** The most records one call may ask for (`limit`), as the common paging parameters say. */
export const MAX_PAGE_SIZE = 1024;
/** Records per call when nobody says otherwise: the services' own default `limit`. */
export const DEFAULT_PAGE_SIZE = 128;
/**
 * Pages requested at once by `list`. Four keeps a slow link busy (about 4× the throughput of
 * one page at a time) while asking little of a service that publishes no rate limit.
 */
export const DEFAULT_PREFETCH = 4;
/** The most pages `list` keeps in flight, so a typo cannot flood a service. */
export const MAX_PREFETCH = 32;

/** The client-wide paging defaults; each `list` call may override them. */
export interface PagingOptions {
  /** Records per request of `list`, 1–1024; 128 by default. */
  pageSize?: number | undefined;
  /** Requests `list` keeps in flight, 1–32; 4 by default. */
  prefetch?: number | undefined;
}

/** Only records modified since this day: a `Date` (its UTC day) or `YYYY-MM-DD`. */
export type ModifiedSince = Date | string;

/** Options of `list`. */
export interface ListOptions extends PagingOptions {
  /** Only records modified since this day; every record when left out. */
  modifiedSince?: ModifiedSince | undefined;
  /** The offset of the first record, e.g. to resume; 0 by default. */
  startOffset?: number | undefined;
  /** Aborts the iteration and every request in flight. */
  signal?: AbortSignal | undefined;
}

/** Options of `page`. */
export interface PageOptions {
  /** Only records modified since this day; every record when left out. */
  modifiedSince?: ModifiedSince | undefined;
  /** Records in the page, 1–1024; the client's `pageSize` (128 by default) when left out. */
  limit?: number | undefined;
  /** Zero-based index of the first record; 0 by default. */
  offset?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** The query of one collection read, as the specs name its parameters. */
export interface CollectionQuery {
  modifiedSince?: string;
  limit: number;
  offset: number;
}

/** What one read passes to openapi-fetch besides the query. */
export interface CollectionRequestInit {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** One GET of the collection, e.g. `(query, init) => raw.GET(path, { params: { query }, ...init })`. */
export type CollectionRead<T> = (
  query: CollectionQuery,
  init: CollectionRequestInit,
) => Promise<{ data?: readonly T[] | undefined; response: Response }>;

/** An offset-paged collection of a service. */
export interface OffsetCollection<T> {
  /**
   * Every record, in order and once each, fetching `prefetch` pages at a time; `.pages()` gives
   * the pages. Leaving the loop early aborts the requests in flight.
   */
  list(options?: ListOptions): Paginated<T>;
  /** One page: up to `limit` records from `offset`. */
  page(options?: PageOptions): Promise<T[]>;
}

/** Builds the collections of one client, sharing its paging defaults. */
export interface OffsetPaging {
  /** A collection named `name` (for messages, e.g. `locations`) read by `read`. */
  collection<T>(name: string, read: CollectionRead<T>): OffsetCollection<T>;
}

type Fail = (name: string, problem: string) => Error;

function integerIn(fail: Fail, name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw fail(name, `must be an integer ${range} (got ${String(value)})`);
  }
  return value;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` of a real calendar day (no 2026-02-30), or `undefined`. */
function calendarDay(value: string): string | undefined {
  const match = DAY.exec(value);
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const same =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return same ? value : undefined;
}

function modifiedSinceQuery(fail: Fail, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Date && !Number.isNaN(value.getTime())) {
    return value.toISOString().slice(0, 10);
  }
  const day = typeof value === 'string' ? calendarDay(value) : undefined;
  if (day !== undefined) return day;
  const shown = value instanceof Date ? 'an invalid Date' : (JSON.stringify(value) ?? typeof value);
  throw fail('modifiedSince', `must be a Date or a YYYY-MM-DD day (got ${shown})`);
}

function optionsObject<T extends object>(fail: Fail, value: T | undefined): Partial<T> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null) throw fail('options', 'must be an object');
  return value;
}

/** The records of one response: an array, or an `ApiError` saying what came instead. */
async function recordsOf<T>(
  operation: string,
  pending: ReturnType<CollectionRead<T>>,
): Promise<T[]> {
  // A 2xx body that does not parse never gets here: the pipeline makes it a retried
  // `malformed_response` error.
  const result = await pending;
  if (Array.isArray(result.data)) return result.data as T[];
  throw new ApiError({
    status: result.response.status,
    code: 'unexpected_response',
    message: `${operation} answered ${result.response.status} without the array of records`,
  });
}

/**
 * The offset paging of one client: checks its defaults once, then builds `list` and `page` for
 * each collection over one openapi-fetch GET with `modifiedSince`, `limit` and `offset`. A bad
 * default is a `ConfigurationError`; a bad call argument an `InvalidArgumentError` naming the
 * operation, both before any request.
 *
 * @example
 * const paging = createOffsetPaging({ pageSize: 512, prefetch: 8 });
 * const locations = paging.collection<Location>('locations', (query, init) =>
 *   raw.GET('/open/portal-api/exposure/locations', { params: { query }, ...init }),
 * );
 * for await (const location of locations.list({ modifiedSince: '2026-01-31' })) {
 *   console.log(location.locationId);
 * }
 * const firstTen = await locations.page({ limit: 10 });
 */
export function createOffsetPaging(defaults: PagingOptions = {}): OffsetPaging {
  const configFail: Fail = (name, problem) => new ConfigurationError(name, problem);
  const given = optionsObject(configFail, defaults);
  const defaultPageSize =
    given.pageSize === undefined
      ? DEFAULT_PAGE_SIZE
      : integerIn(configFail, 'pageSize', given.pageSize, 1, MAX_PAGE_SIZE);
  const defaultPrefetch =
    given.prefetch === undefined
      ? DEFAULT_PREFETCH
      : integerIn(configFail, 'prefetch', given.prefetch, 1, MAX_PREFETCH);

  return {
    collection<T>(name: string, read: CollectionRead<T>): OffsetCollection<T> {
      const listName = `${name}.list`;
      const pageName = `${name}.page`;
      const listFail: Fail = (arg, problem) => new InvalidArgumentError(arg, problem, listName);
      const pageFail: Fail = (arg, problem) => new InvalidArgumentError(arg, problem, pageName);

      return {
        list(options) {
          const o = checkCallOptions(options, listName);
          const pageSize =
            o.pageSize === undefined
              ? defaultPageSize
              : integerIn(listFail, 'pageSize', o.pageSize, 1, MAX_PAGE_SIZE);
          const prefetch =
            o.prefetch === undefined
              ? defaultPrefetch
              : integerIn(listFail, 'prefetch', o.prefetch, 1, MAX_PREFETCH);
          const startOffset =
            o.startOffset === undefined
              ? 0
              : integerIn(listFail, 'startOffset', o.startOffset, 0, Number.MAX_SAFE_INTEGER);
          const modifiedSince = modifiedSinceQuery(listFail, o.modifiedSince);
          const { signal } = o;
          return paginate<T>({
            pageSize,
            prefetch,
            startOffset,
            signal,
            fetchPage: ({ offset, limit, signal: pageSignal, conversationId }) =>
              recordsOf(
                listName,
                read(
                  modifiedSince === undefined
                    ? { limit, offset }
                    : { modifiedSince, limit, offset },
                  { signal: pageSignal, headers: { 'x-z-conversation-id': conversationId } },
                ),
              ),
          });
        },

        async page(options) {
          const o = checkCallOptions(options, pageName);
          const limit =
            o.limit === undefined
              ? defaultPageSize
              : integerIn(pageFail, 'limit', o.limit, 1, MAX_PAGE_SIZE);
          const offset =
            o.offset === undefined
              ? 0
              : integerIn(pageFail, 'offset', o.offset, 0, Number.MAX_SAFE_INTEGER);
          const modifiedSince = modifiedSinceQuery(pageFail, o.modifiedSince);
          const { signal } = o;
          const query =
            modifiedSince === undefined ? { limit, offset } : { modifiedSince, limit, offset };
          return recordsOf(pageName, read(query, signal === undefined ? {} : { signal }));
        },
      };
    },
  };
}
