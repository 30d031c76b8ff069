import { ApiError, ConfigurationError, InvalidArgumentError } from '@partner-apis/errors';
import { startFaultServer, type FaultServer } from '@partner-apis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_PREFETCH,
  createOffsetPaging,
  createServiceClient,
  type CollectionQuery,
  type CollectionRequestInit,
} from './index.js';

interface Row {
  id: number;
}

/** A collection of `total` rows read without HTTP; every read is recorded. */
function rows(total: number) {
  const reads: Array<{ query: CollectionQuery; init: CollectionRequestInit }> = [];
  const read = async (query: CollectionQuery, init: CollectionRequestInit) => {
    reads.push({ query, init });
    const count = Math.max(0, Math.min(query.limit, total - query.offset));
    const data: Row[] = Array.from({ length: count }, (_, i) => ({ id: query.offset + i }));
    return { data, response: new Response(null, { status: 200 }) };
  };
  return { read, reads };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of iterable) all.push(item);
  return all;
}

describe('createOffsetPaging', () => {
  it('lists every record once and in order, whatever the prefetch', async () => {
    const { read } = rows(1000);
    const things = createOffsetPaging().collection('things', read);
    const ids = (list: Row[]) => list.map((row) => row.id);
    const expected = Array.from({ length: 1000 }, (_, i) => i);
    expect(ids(await collect(things.list({ pageSize: 64, prefetch: 1 })))).toEqual(expected);
    expect(ids(await collect(things.list({ pageSize: 64, prefetch: 8 })))).toEqual(expected);
    expect(ids(await collect(things.list({ pageSize: 1000 })))).toEqual(expected);
  });

  it('asks for the default page size and one conversation id per iteration', async () => {
    const { read, reads } = rows(300);
    const things = createOffsetPaging().collection('things', read);
    expect(await collect(things.list())).toHaveLength(300);
    const asked = reads.map(({ query }) => query).sort((a, b) => a.offset - b.offset);
    expect(asked.slice(0, 3)).toEqual([
      { limit: DEFAULT_PAGE_SIZE, offset: 0 },
      { limit: DEFAULT_PAGE_SIZE, offset: 128 },
      { limit: DEFAULT_PAGE_SIZE, offset: 256 },
    ]);
    // The default prefetch asks past the end before it sees the short page.
    expect(reads.length).toBeGreaterThan(3);
    expect(reads.length).toBeLessThanOrEqual(3 + DEFAULT_PREFETCH);
    const ids = new Set(reads.map(({ init }) => init.headers?.['x-z-conversation-id']));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('uses the client defaults and lets a call override them', async () => {
    const { read, reads } = rows(50);
    const things = createOffsetPaging({ pageSize: 20, prefetch: 1 }).collection('things', read);
    await collect(things.list());
    expect(reads.map(({ query }) => query.limit)).toEqual([20, 20, 20]);
    expect(await things.page()).toHaveLength(20);
    expect(await things.page({ limit: 5, offset: 48 })).toEqual([{ id: 48 }, { id: 49 }]);
    reads.length = 0;
    await collect(things.list({ pageSize: 25, startOffset: 10 }));
    expect(reads.map(({ query }) => query.offset)).toEqual([10, 35]);
  });

  it('sends modifiedSince as a day, from a Date (its UTC day) or YYYY-MM-DD', async () => {
    const { read, reads } = rows(3);
    const things = createOffsetPaging().collection('things', read);
    await things.page({ modifiedSince: new Date('2026-01-31T23:30:00-02:00') });
    await collect(things.list({ modifiedSince: '2024-02-29', prefetch: 1 }));
    expect(reads.map(({ query }) => query.modifiedSince)).toEqual(['2026-02-01', '2024-02-29']);
    await things.page();
    expect(reads[2]?.query).toEqual({ limit: 128, offset: 0 });
  });

  it('refuses bad call arguments before any request, naming the operation', async () => {
    const { read, reads } = rows(3);
    const things = createOffsetPaging().collection('things', read);
    const listing = (options: object) => () => things.list(options);
    expect(listing({ pageSize: 1025 })).toThrow(
      new InvalidArgumentError(
        'pageSize',
        'must be an integer from 1 to 1024 (got 1025)',
        'things.list',
      ),
    );
    expect(listing({ prefetch: 0 })).toThrow(
      'things.list: prefetch must be an integer from 1 to 32',
    );
    expect(listing({ startOffset: -1 })).toThrow('startOffset must be an integer of at least 0');
    expect(listing({ modifiedSince: '2026-02-30' })).toThrow(
      'things.list: modifiedSince must be a Date or a YYYY-MM-DD day (got "2026-02-30")',
    );
    expect(listing({ modifiedSince: '31/01/2026' })).toThrow(InvalidArgumentError);
    expect(listing({ modifiedSince: new Date('nonsense') })).toThrow('(got an invalid Date)');
    expect(listing({ modifiedSince: 20260131 })).toThrow('(got 20260131)');
    expect(listing({ signal: 'stop' })).toThrow('signal must be an AbortSignal');
    await expect(things.page({ limit: 0 })).rejects.toThrow('things.page: limit must be');
    await expect(things.page({ offset: 1.5 })).rejects.toThrow('things.page: offset must be');
    await expect(things.page(null as never)).rejects.toThrow('things.page: options must be');
    expect(reads).toHaveLength(0);
  });

  it('refuses bad defaults when the client is created, naming the option', () => {
    expect(() => createOffsetPaging({ pageSize: 2048 })).toThrow(
      new ConfigurationError('pageSize', 'must be an integer from 1 to 1024 (got 2048)'),
    );
    expect(() => createOffsetPaging({ prefetch: 0 })).toThrow('prefetch: must be an integer');
    expect(() => createOffsetPaging({ prefetch: 2.5 })).toThrow(ConfigurationError);
  });

  it('stops the requests in flight when the loop is left', async () => {
    const held: AbortSignal[] = [];
    const things = createOffsetPaging({ pageSize: 10, prefetch: 4 }).collection<Row>(
      'things',
      (query, init) => {
        const data = Array.from({ length: 10 }, (_, i) => ({ id: query.offset + i }));
        if (query.offset < 20) return Promise.resolve({ data, response: new Response(null) });
        // Later pages answer only by failing once they are aborted, like a stalled network.
        const { signal } = init;
        if (signal === undefined) throw new Error('every page read needs a signal');
        held.push(signal);
        return new Promise((_, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      },
    );
    const seen: Row[] = [];
    for await (const row of things.list()) {
      seen.push(row);
      if (seen.length === 15) break;
    }
    expect(seen.at(-1)).toEqual({ id: 14 });
    expect(held.length).toBeGreaterThan(0);
    expect(held.every((signal) => signal.aborted)).toBe(true);
  });

  it('turns a body that is not an array of records into an ApiError', async () => {
    const things = createOffsetPaging().collection<Row>('things', async () => ({
      data: { items: [] } as never,
      response: new Response(null, { status: 200 }),
    }));
    const error = await things.page().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, code: 'unexpected_response' });
    expect((error as Error).message).toBe('things.page answered 200 without the array of records');
  });

  describe('over HTTP', () => {
    let server: FaultServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    interface paths {
      '/rows': {
        get: {
          parameters: { query?: { modifiedSince?: string; limit?: number; offset?: number } };
          responses: { 200: { content: { 'application/json': Row[] } } };
        };
      };
    }

    async function client(body: unknown) {
      server = await startFaultServer({
        '/rows': [{ body, headers: { 'content-type': 'application/json' } }],
      });
      const { raw } = createServiceClient<paths>({ baseUrl: server.url });
      return createOffsetPaging().collection('rows', (query, init) =>
        raw.GET('/rows', { params: { query }, ...init }),
      );
    }

    it('reads the query parameters the spec names and the conversation id header', async () => {
      const rowsOf = await client([{ id: 1 }]);
      expect(await collect(rowsOf.list({ modifiedSince: '2026-01-31', prefetch: 1 }))).toEqual([
        { id: 1 },
      ]);
      const [request] = server?.requestsTo('/rows') ?? [];
      expect(request?.url).toBe('/rows?modifiedSince=2026-01-31&limit=128&offset=0');
      expect(request?.headers['x-z-conversation-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('turns a 200 whose body is cut short into an ApiError, not a SyntaxError', async () => {
      const rowsOf = await client('[{"id":1},{"id"');
      const error = await rowsOf.page().catch((e: unknown) => e);
      // The default transport leaves the parsing to openapi-fetch, a stricter one may refuse the
      // body itself (`malformed_response`); either way the caller gets an ApiError.
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 200 });
    });
  });
});
