import { InvalidArgumentError } from '@partner-apis/errors';

/** What `fetchPage` is asked for. */
export interface PageRequest {
  /** Position of the first record of the page (zero-based record index). */
  readonly offset: number;
  /** Records per page: the `pageSize`. */
  readonly limit: number;
  /** Aborts when the iteration ends early; pass it to the request. */
  readonly signal: AbortSignal;
  /** One id for the whole iteration, for `X-Z-Conversation-Id`. */
  readonly conversationId: string;
}

/** One page, as `.pages()` yields it. */
export interface Page<T> {
  readonly offset: number;
  readonly records: readonly T[];
}

/** Options of `paginate`. */
export interface PaginateOptions<T> {
  /** Fetches one page; resolves to its records. */
  fetchPage(request: PageRequest): Promise<readonly T[]>;
  /** Records per page; a page with fewer ends the iteration. */
  pageSize: number;
  /** The largest page the service allows; a larger `pageSize` is an error, not a silent clamp. */
  maxPageSize?: number | undefined;
  /** Pages requested ahead, concurrently (the rate limiter still applies); 1 by default. */
  prefetch?: number | undefined;
  /** Where to start, e.g. to resume an iteration; 0 by default. */
  startOffset?: number | undefined;
  /** Aborts the iteration and every page in flight. */
  signal?: AbortSignal | undefined;
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

/**
 * Iterates an offset-paged collection. Offsets are known in advance, so up to `prefetch` pages
 * are requested at once; records still come out in order and exactly once. The iteration ends
 * at the first page shorter than `pageSize`; leaving the loop early aborts the pages in flight.
 *
 * @example
 * const locations = paginate({
 *   pageSize: 512,
 *   maxPageSize: 1024,
 *   prefetch: 4,
 *   fetchPage: ({ offset, limit, signal }) => fetchLocations({ offset, limit }, signal),
 * });
 * for await (const location of locations) console.log(location.id);
 */
export function paginate<T>(options: PaginateOptions<T>): Paginated<T> {
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
  const prefetch = integer('prefetch', options.prefetch ?? 1, 1);
  const startOffset = integer('startOffset', options.startOffset ?? 0, 0);
  const { fetchPage, signal } = options;

  async function* pages(): AsyncGenerator<Page<T>> {
    signal?.throwIfAborted();
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const conversationId = globalThis.crypto.randomUUID();
    const inFlight: Array<{ offset: number; records: Promise<readonly T[]> }> = [];
    let nextOffset = startOffset;
    try {
      for (;;) {
        controller.signal.throwIfAborted();
        while (inFlight.length < prefetch) {
          const offset = nextOffset;
          nextOffset += pageSize;
          // Each page gets its own signal, unlinked once it settles: listeners on the
          // iteration's signal stay bounded by `prefetch`, however many pages there are.
          const pageController = new AbortController();
          const abortPage = () => pageController.abort(controller.signal.reason);
          controller.signal.addEventListener('abort', abortPage, { once: true });
          const records = fetchPage({
            offset,
            limit: pageSize,
            signal: pageController.signal,
            conversationId,
          });
          // Pages past the end are aborted; their rejections must not go unhandled.
          records
            .finally(() => controller.signal.removeEventListener('abort', abortPage))
            .catch(() => undefined);
          inFlight.push({ offset, records });
        }
        const page = inFlight.shift() as { offset: number; records: Promise<readonly T[]> };
        const records = await page.records;
        yield { offset: page.offset, records };
        if (records.length < pageSize) return;
      }
    } finally {
      controller.abort(new DOMException('the iteration ended', 'AbortError'));
      signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.records;
    },
  };
}
