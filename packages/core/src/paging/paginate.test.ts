import { InvalidArgumentError } from '@partner-apis/errors';
import {
  createVirtualTime,
  startFaultServer,
  warningsDuring,
  type FaultServer,
  type RecordedRequest,
} from '@partner-apis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../index.js';
import { paginate, type PageRequest } from '../internal.js';
import { withTestHooks } from '../testing.js';

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A collection of `total` records `{ id }`, paged by `offset` and `limit` query parameters. */
function collection(total: number) {
  return (request: RecordedRequest) => {
    const query = new URL(request.url, 'http://x').searchParams;
    const offset = Number(query.get('offset'));
    const limit = Number(query.get('limit'));
    const items = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({
      id: offset + i,
    }));
    return { body: { items } };
  };
}

interface paths {
  '/records': {
    get: {
      parameters: {
        query: { offset: number; limit: number };
        header: { 'X-Z-Request-Id': string; 'X-Z-Conversation-Id': string };
      };
      responses: {
        200: { content: { 'application/json': { items: Array<{ id: number }> } } };
      };
    };
  };
}

/** The tracing headers the client sets, as codegen writes them. */
const service = {
  operations: {},
  securitySchemes: {},
  tracingHeaders: { requestId: 'X-Z-Request-Id', conversationId: 'X-Z-Conversation-Id' },
} as const;

function recordsClient(url: string) {
  const time = createVirtualTime();
  const { raw } = createServiceClient<paths, typeof service>(
    withTestHooks(
      { baseUrl: url, credentials: {}, retry: { attempts: 5 } },
      { clock: time.now, sleep: time.sleep, random: () => 0.5 },
    ),
    {
      auth: () => ({ secretHeaderNames: [], authorize: () => undefined }),
      service,
    },
  );
  return async ({ offset, limit, signal }: PageRequest) => {
    const { data } = await raw.GET('/records', {
      params: { query: { offset, limit }, header: { 'X-Z-Conversation-Id': 'flow-1' } },
      signal,
    });
    return data?.items ?? [];
  };
}

describe('paginate', () => {
  it('paginate with prefetch 8 yields every record once and in order under injected 503s', async () => {
    const pages = collection(1000);
    let count = 0;
    server = await startFaultServer({
      '/records': (request) => {
        count += 1;
        return count % 3 === 0 ? { status: 503, body: 'busy' } : pages(request);
      },
    });
    const ids: number[] = [];
    for await (const record of paginate({
      fetchPage: recordsClient(server.url),
      pageSize: 32,
      maxPageSize: 1024,
      prefetch: 8,
    })) {
      ids.push(record.id);
    }
    expect(ids).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  }, 30_000);

  it('never has more than prefetch pages in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const ids: number[] = [];
    for await (const record of paginate({
      pageSize: 10,
      prefetch: 3,
      async fetchPage({ offset, limit }) {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight -= 1;
        return Array.from({ length: offset < 95 ? limit : 0 }, (_, i) => offset + i);
      },
    })) {
      ids.push(record);
    }
    expect(ids).toHaveLength(100);
    expect(most).toBe(3);
  });

  it('confirms a short page with one request right after it, and ends at an empty page', async () => {
    const asked: number[] = [];
    const fetchPage = async ({ offset, limit }: PageRequest) => {
      asked.push(offset);
      return Array.from(
        { length: Math.max(0, Math.min(limit, 25 - offset)) },
        (_, i) => offset + i,
      );
    };
    const pages = [];
    for await (const page of paginate({ fetchPage, pageSize: 10 }).pages()) pages.push(page);
    expect(pages.map((p) => [p.offset, p.records.length])).toEqual([
      [0, 10],
      [10, 10],
      [20, 5],
    ]);
    expect(asked).toEqual([0, 10, 20, 25]);
    const none: number[] = [];
    for await (const record of paginate({
      fetchPage: async (): Promise<number[]> => [],
      pageSize: 10,
    })) {
      none.push(record);
    }
    expect(none).toEqual([]);
  });

  it('a start offset resumes an iteration', async () => {
    const ids: number[] = [];
    for await (const id of paginate({
      pageSize: 10,
      startOffset: 40,
      fetchPage: async ({ offset, limit }) =>
        Array.from({ length: Math.max(0, Math.min(limit, 55 - offset)) }, (_, i) => offset + i),
    })) {
      ids.push(id);
    }
    expect(ids).toEqual(Array.from({ length: 15 }, (_, i) => 40 + i));
  });

  it('keeps abort listeners bounded over thousands of pages', async () => {
    let pages = 0;
    const seen: number[] = [];
    const warnings = await warningsDuring(async () => {
      const records = paginate({
        pageSize: 1,
        prefetch: 4,
        // Like a request in flight, each page listens to its signal and never lets go.
        fetchPage: async ({ offset, signal }) => {
          signal.addEventListener('abort', () => undefined);
          pages += 1;
          return offset < 2_000 ? [offset] : [];
        },
      });
      for await (const record of records) seen.push(record);
    });
    expect(seen).toHaveLength(2_000);
    expect(pages).toBeGreaterThanOrEqual(2_001);
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
  });

  it('after a short page asks one page at a time, until a full page shows a cap', async () => {
    const events: string[] = [];
    const warnings: string[] = [];
    const ids: number[] = [];
    for await (const id of paginate({
      pageSize: 10,
      prefetch: 3,
      onWarning: (message) => warnings.push(message),
      // Caps every page at 4 records, of 20.
      fetchPage: async ({ offset, limit }) => {
        events.push(`ask ${offset}`);
        await new Promise((resolve) => setImmediate(resolve));
        events.push(`done ${offset}`);
        const length = Math.max(0, Math.min(limit, 4, 20 - offset));
        return Array.from({ length }, (_, i) => offset + i);
      },
    })) {
      ids.push(id);
    }
    expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // 10 and 20 were in flight when page 0 came back short; then 4 alone, and prefetching
    // resumes at 4 per page once it came back full.
    const asked = events.filter((e) => e.startsWith('ask')).map((e) => Number(e.slice(4)));
    expect(asked).toEqual([0, 10, 20, 4, 8, 12, 16, 20, 24, 28]);
    expect(events.indexOf('done 4')).toBeLessThan(events.indexOf('ask 8'));
    expect(events.indexOf('ask 12')).toBeLessThan(events.indexOf('done 8'));
    expect(warnings).toEqual([
      'the service answered 4 records per page where 10 were asked; paging continues at 4 per page',
    ]);
  });

  it('ends a prefetching iteration at a short last page with one confirming request', async () => {
    const asked: number[] = [];
    const ids: number[] = [];
    const warnings = await warningsDuring(async () => {
      for await (const id of paginate({
        pageSize: 10,
        prefetch: 8,
        // Like requests in flight: each page listens to its signal and settles later, aborted
        // or not, so abandoned pages are still pending when the confirming request goes out.
        fetchPage: ({ offset, limit, signal }) => {
          asked.push(offset);
          signal.addEventListener('abort', () => undefined);
          const length = Math.max(0, Math.min(limit, 95 - offset));
          const records = Array.from({ length }, (_, i) => offset + i);
          return new Promise<number[]>((resolve) => setTimeout(() => resolve(records), 5));
        },
      })) {
        ids.push(id);
      }
      // The abandoned pages settle after the iteration; nothing may warn then either.
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(ids).toEqual(Array.from({ length: 95 }, (_, i) => i));
    expect(asked.slice(asked.indexOf(95))).toEqual([95]);
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
  });

  it('break aborts in-flight pages', async () => {
    const first = collection(10_000);
    server = await startFaultServer({
      // The first page answers; every later one is held until its request is aborted.
      '/records': (request) =>
        request.url.includes('offset=0&') ? first(request) : new Promise(() => undefined),
    });
    const fetchPage = recordsClient(server.url);
    let seen = 0;
    for await (const record of paginate({ fetchPage, pageSize: 50, prefetch: 4 })) {
      seen += 1;
      if (record.id === 9) break;
    }
    expect(seen).toBe(10);
    await server.waitForRequests(4);
    const held = server.requests.filter((r) => !r.url.includes('offset=0&'));
    expect(held.length).toBeGreaterThanOrEqual(3);
    await expect.poll(() => held.every((r) => r.aborted)).toBe(true);
  });

  it('a failing page ends the iteration with its error and aborts the rest', async () => {
    const signals = new Map<number, AbortSignal>();
    const iteration = paginate({
      pageSize: 5,
      prefetch: 3,
      fetchPage: ({ offset, signal }) => {
        signals.set(offset, signal);
        return offset === 5
          ? Promise.reject(new Error('page 2 failed'))
          : new Promise<number[]>((resolve) => setImmediate(() => resolve([1, 2, 3, 4, 5])));
      },
    });
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const record of iteration) seen.push(record);
      })(),
    ).rejects.toThrow('page 2 failed');
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    // The pages still in flight when page 2 failed; settled pages have nothing left to abort.
    const inFlight = [...signals].filter(([offset]) => offset > 5);
    expect(inFlight.length).toBeGreaterThan(0);
    expect(inFlight.every(([, signal]) => signal.aborted)).toBe(true);
  });

  it("the caller's signal aborts the iteration", async () => {
    const controller = new AbortController();
    const iteration = paginate({
      pageSize: 2,
      signal: controller.signal,
      fetchPage: async ({ offset }) => {
        if (offset === 4) controller.abort(new Error('stop'));
        return [offset, offset + 1];
      },
    });
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const record of iteration) seen.push(record);
      })(),
    ).rejects.toThrow('stop');
    expect(seen.length).toBeLessThanOrEqual(6);
  });

  it.each([
    [{ pageSize: 2048, maxPageSize: 1024 }, 'paginate: pageSize must be at most 1024 (got 2048)'],
    [{ pageSize: 0 }, 'paginate: pageSize must be an integer of at least 1 (got 0)'],
    [{ pageSize: 10, prefetch: 0 }, 'paginate: prefetch must be an integer of at least 1 (got 0)'],
    [{ pageSize: 10, startOffset: -1 }, 'paginate: startOffset must be an integer of at least 0'],
    [{ pageSize: 1.5 }, 'paginate: pageSize must be an integer of at least 1 (got 1.5)'],
  ])('refuses %j before any request', (options, message) => {
    let calls = 0;
    const fetchPage = async () => {
      calls += 1;
      return [];
    };
    expect(() => paginate({ fetchPage, ...options })).toThrow(InvalidArgumentError);
    expect(() => paginate({ fetchPage, ...options })).toThrow(message);
    expect(calls).toBe(0);
  });
});
