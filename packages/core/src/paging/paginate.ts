import { ApiError, InvalidArgumentError } from '@partner-apis/errors';

/** What `fetchPage` is asked for. */
export interface PageRequest {
  /** Position of the first record of the page (zero-based record index). */
  readonly offset: number;
  /** Records asked for. */
  readonly limit: number;
  /** Aborts when the iteration ends early or the page is no longer needed; pass it on. */
  readonly signal: AbortSignal;
}

/** What `fetchPage` resolves to: the records, and the envelope object they came in, if any. */
export interface PageContents<T> {
  readonly records: readonly T[];
  readonly envelope?: Readonly<Record<string, unknown>> | undefined;
}

/** One page, as `.pages()` yields it. */
export interface Page<T> {
  readonly offset: number;
  readonly records: readonly T[];
  /** The envelope object of the answer (its fields besides the records), when there is one. */
  readonly envelope?: Readonly<Record<string, unknown>> | undefined;
}

/** Options of `paginate`. */
export interface PaginateOptions<T> {
  /** Fetches one page. */
  fetchPage(request: PageRequest): Promise<readonly T[] | PageContents<T>>;
  /** Records per page asked for. */
  pageSize: number;
  /** The largest page the service allows; a larger `pageSize` is an error, not a silent clamp. */
  maxPageSize?: number | undefined;
  /** Pages requested ahead, concurrently (the rate limiter still applies); 1 by default. */
  prefetch?: number | undefined;
  /** Where to start, e.g. to resume an iteration; 0 by default. */
  startOffset?: number | undefined;
  /** Aborts the iteration and every page in flight. */
  signal?: AbortSignal | undefined;
  /**
   * The key of a record (the spec's `x-record-key`): a record whose key came in the page before
   * or earlier in the same page is dropped, so records shifted by an insertion come out once.
   */
  recordKey?: ((record: T) => unknown) | undefined;
  /** Told, once per kind, when the service pages unlike the spec assumes. */
  onWarning?: ((message: string) => void) | undefined;
  /**
   * Every page starts at a whole number of `pageSize` pages: the service counts positions in
   * pages (`x-paging: page`), so a short page is followed by the next page at the same size.
   */
  wholePages?: boolean | undefined;
}

/** The records of every page, in order, once each; `.pages()` gives the pages instead. */
export interface Paginated<T> extends AsyncIterable<T> {
  pages(): AsyncIterable<Page<T>>;
}

function integer(name: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new InvalidArgumentError(
      name,
      `must be an integer of at least ${min} (got ${String(value)})`,
      'paginate',
    );
  }
  return value;
}

interface InFlight<T> {
  readonly offset: number;
  readonly limit: number;
  readonly contents: Promise<PageContents<T>>;
  /** Aborts the page and stops it listening to the iteration's signal. */
  readonly abandon: (reason: unknown) => void;
}

/** Records of a page this many from its end are compared with the next page's first record. */
const BOUNDARY_RECORDS = 8;

function fingerprint(record: unknown): string {
  return JSON.stringify(record) ?? String(record);
}

/**
 * Finds the records of a page that came before, when the spec names no record key: the next
 * page's first record must not equal the first or one of the last records of the page before.
 */
class BoundaryCheck {
  #previous = new Set<string>();

  repeats(records: readonly unknown[]): boolean {
    const first = records.length === 0 ? undefined : fingerprint(records[0]);
    const repeated = first !== undefined && this.#previous.has(first);
    this.#previous = new Set(
      [records[0], ...records.slice(-BOUNDARY_RECORDS)].slice(0, records.length).map(fingerprint),
    );
    return repeated;
  }
}

function repeatedRecordsError(offset: number, keyed: boolean): ApiError {
  return new ApiError({
    status: 200,
    code: 'inconsistent_paging',
    message:
      `the page at offset ${offset} repeats records of the page before: the service's offset ` +
      'does not move through the records as the spec assumes, or records were inserted while ' +
      (keyed
        ? 'paging, so that a whole page came again'
        : 'paging; the spec names no record key (x-record-key) to drop the repeats by'),
  });
}

/**
 * Iterates an offset-paged collection. Offsets are known in advance, so up to `prefetch` pages
 * are requested at once; records come out in order. Leaving the loop early aborts the pages in
 * flight. Where the service pages unlike the spec assumes, nothing is lost or repeated silently:
 *
 * - a page longer than asked is cut to the asked size (the rest comes with the next page);
 * - a short page is confirmed by one more request at the position right after it, so a service
 *   that caps pages below `limit` is followed at its own page size; the iteration ends at the
 *   first empty page;
 * - records repeated from the page before are dropped by `recordKey`; without one, a repeat at
 *   a page boundary is an `ApiError` with code `inconsistent_paging`.
 */
export function paginate<T>(options: PaginateOptions<T>): Paginated<T> {
  const settings = resolvePaginate(options);
  const pages = () => iteratePages(settings);
  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.records;
    },
  };
}

/** `paginate`'s options, checked, with a warning told once per kind. */
interface PaginateSettings<T> {
  readonly fetchPage: PaginateOptions<T>['fetchPage'];
  readonly pageSize: number;
  readonly prefetch: number;
  readonly startOffset: number;
  readonly signal: AbortSignal | undefined;
  readonly recordKey: ((record: T) => unknown) | undefined;
  readonly wholePages: boolean;
  readonly warnOnce: (kind: string, message: string) => void;
}

function resolvePaginate<T>(options: PaginateOptions<T>): PaginateSettings<T> {
  if (typeof options?.fetchPage !== 'function') {
    throw new InvalidArgumentError('fetchPage', 'must be a function', 'paginate');
  }
  const pageSize = integer('pageSize', options.pageSize, 1);
  if (options.maxPageSize !== undefined) {
    const max = integer('maxPageSize', options.maxPageSize, 1);
    if (pageSize > max) {
      throw new InvalidArgumentError(
        'pageSize',
        `must be at most ${max} (got ${pageSize})`,
        'paginate',
      );
    }
  }
  const warned = new Set<string>();
  return {
    fetchPage: options.fetchPage,
    pageSize,
    prefetch: integer('prefetch', options.prefetch ?? 1, 1),
    startOffset: integer('startOffset', options.startOffset ?? 0, 0),
    signal: options.signal,
    recordKey: options.recordKey,
    wholePages: options.wholePages === true,
    warnOnce(kind, message) {
      if (warned.has(kind)) return;
      warned.add(kind);
      options.onWarning?.(message);
    },
  };
}

/**
 * Requests one page. Each page gets its own signal, unlinked once it settles or is abandoned:
 * listeners on the iteration's signal stay bounded by `prefetch`, however many pages there are
 * and however long an abandoned page takes to settle.
 */
function requestPage<T>(
  fetchPage: PaginateOptions<T>['fetchPage'],
  iteration: AbortSignal,
  offset: number,
  limit: number,
): InFlight<T> {
  const pageController = new AbortController();
  const abortPage = () => pageController.abort(iteration.reason);
  const unlink = () => iteration.removeEventListener('abort', abortPage);
  iteration.addEventListener('abort', abortPage, { once: true });
  const contents = fetchPage({ offset, limit, signal: pageController.signal }).then(
    (answer): PageContents<T> =>
      Array.isArray(answer) ? { records: answer } : (answer as PageContents<T>),
  );
  // Pages past the end are aborted; their rejections must not go unhandled.
  contents.finally(unlink).catch(() => undefined);
  const abandon = (reason: unknown) => {
    unlink();
    pageController.abort(reason);
  };
  return { offset, limit, contents, abandon };
}

/**
 * Drops the records of a page whose key came in the page before or earlier in the same page,
 * telling it once; a whole page of repeats is an `inconsistent_paging` error.
 */
class KeyedRepeats<T> {
  #seen = new Set<unknown>();

  constructor(
    private readonly recordKey: (record: T) => unknown,
    private readonly warnOnce: PaginateSettings<T>['warnOnce'],
  ) {}

  fresh(records: readonly T[], page: InFlight<T>): readonly T[] {
    const keys = new Set<unknown>();
    let keyless = 0;
    const fresh = records.filter((record) => {
      const key = this.recordKey(record);
      if (key === undefined || key === null) {
        keyless += 1;
        return true;
      }
      const repeated = this.#seen.has(key) || keys.has(key);
      keys.add(key);
      return !repeated;
    });
    this.#seen = keys;
    if (fresh.length < records.length) {
      if (fresh.length === 0 && records.length === page.limit) {
        throw repeatedRecordsError(page.offset, true);
      }
      this.warnOnce(
        'repeat',
        `the page at offset ${page.offset} repeated ${records.length - fresh.length} records ` +
          'of the page before (records inserted while paging?); each came out once',
      );
    }
    if (keyless > 0) {
      this.warnOnce(
        'keyless',
        `the page at offset ${page.offset} held ${keyless} records without their key, ` +
          'which cannot be told from a repeat: they were passed on as they are, so one ' +
          'may come out twice',
      );
    }
    return fresh;
  }
}

/** The records of an answer, cut to the size asked, with the repeats dropped or refused. */
function recordsOf<T>(
  answer: PageContents<T>,
  page: InFlight<T>,
  settings: PaginateSettings<T>,
  repeats: KeyedRepeats<T> | BoundaryCheck,
): { received: number; records: readonly T[] } {
  let { records } = answer;
  if (records.length > page.limit) {
    settings.warnOnce(
      'long',
      `the service answered ${records.length} records where ${page.limit} were asked; ` +
        'the records past the asked size are left to the next page',
    );
    records = records.slice(0, page.limit);
  }
  const received = records.length;
  if (repeats instanceof KeyedRepeats) records = repeats.fresh(records, page);
  else if (repeats.repeats(records)) throw repeatedRecordsError(page.offset, false);
  return { received, records };
}

async function* iteratePages<T>(settings: PaginateSettings<T>): AsyncGenerator<Page<T>> {
  const { signal, pageSize, wholePages, warnOnce } = settings;
  signal?.throwIfAborted();
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let inFlight: InFlight<T>[] = [];
  let size = pageSize;
  let nextOffset = settings.startOffset;
  // After a short page, one request at a time until a full page shows the service caps pages
  // (then prefetching resumes at its size) or an empty one shows the end.
  let confirming = false;
  const repeats =
    settings.recordKey === undefined
      ? new BoundaryCheck()
      : new KeyedRepeats(settings.recordKey, warnOnce);
  try {
    for (;;) {
      controller.signal.throwIfAborted();
      while (inFlight.length < (confirming ? 1 : settings.prefetch)) {
        inFlight.push(requestPage(settings.fetchPage, controller.signal, nextOffset, size));
        nextOffset += size;
      }
      const page = inFlight.shift() as InFlight<T>;
      const answer = await page.contents;
      const { received, records } = recordsOf(answer, page, settings, repeats);
      if (received === 0) return;
      if (records.length > 0) {
        const { envelope } = answer;
        yield envelope === undefined
          ? { offset: page.offset, records }
          : { offset: page.offset, records, envelope };
      }
      if (received < page.limit) {
        // The end, or a service that caps pages below the asked size: the pages in flight
        // were asked at positions that would skip records, so ask again right after this one.
        for (const stale of inFlight) stale.abandon(new DOMException('stale', 'AbortError'));
        inFlight = [];
        // A page index cannot point between pages: the next page keeps the asked size.
        size = wholePages ? page.limit : received;
        nextOffset = page.offset + size;
        confirming = true;
      } else if (confirming) {
        confirming = false;
        warnOnce(
          'cap',
          wholePages
            ? 'the service answered fewer records than asked on a page before its last; it ' +
                'pages by page index, so records past its own page size are out of reach'
            : `the service answered ${size} records per page where ${pageSize} were asked; ` +
                `paging continues at ${size} per page`,
        );
      }
    }
  } finally {
    controller.abort(new DOMException('the iteration ended', 'AbortError'));
    signal?.removeEventListener('abort', onAbort);
  }
}
