import { ApiError, ConfigurationError, InvalidArgumentError } from '@partner-apis/errors';
import { startFaultServer, type FaultServer, type RecordedRequest } from '@partner-apis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PREFETCH } from './offset-collection.js';
import { createServiceClient, type OperationDescription, type PagingOptions } from '../index.js';
import { createOffsetCollection } from '../internal.js';

interface Row {
  id: number;
}

/** A paged read as codegen describes it: the common paging parameters and one filter. */
const listRows = {
  operationId: 'listRows',
  resource: 'rows',
  verb: 'list',
  method: 'GET',
  path: '/rows',
  arguments: [{ in: 'params', required: false }],
  parameters: [
    { name: 'modifiedSince', in: 'query', required: false, type: 'string', format: 'date' },
    { name: 'region', in: 'query', required: false, type: 'string', enum: ['EU', 'US'] },
    { name: 'minScore', in: 'query', required: false, type: 'integer', minimum: 0, assumed: true },
    { name: 'country', in: 'query', required: false, type: 'string', pattern: '^[A-Z]{2}$' },
    {
      name: 'limit',
      in: 'query',
      required: false,
      type: 'integer',
      minimum: 1,
      maximum: 1024,
      default: 128,
      paging: 'limit',
    },
    {
      name: 'offset',
      in: 'query',
      required: false,
      type: 'integer',
      minimum: 0,
      default: 0,
      paging: 'offset',
      assumed: true,
    },
  ],
  response: { kind: 'json', type: 'array' },
  paging: { pageSize: 128, records: null, itemType: 'object' },
  security: [],
} as const satisfies OperationDescription;

/** How the served collection misbehaves. */
interface Serving {
  total: number;
  /** Answers at most this many records, whatever `limit` asks. */
  cap?: number;
  /** Answers this many records more than asked. */
  extra?: number;
  /** Shifts every page after the first back by this many records (an insertion ahead). */
  shift?: number;
  /** Ignores `offset`: every page starts at 0. */
  ignoreOffset?: boolean;
  /** Wraps the records in `{ items, total }`. */
  envelope?: boolean;
}

function serve(serving: Serving) {
  return (request: RecordedRequest) => {
    const query = new URL(request.url, 'http://x').searchParams;
    let offset = serving.ignoreOffset ? 0 : Number(query.get('offset'));
    if (offset > 0 && serving.shift !== undefined) offset -= serving.shift;
    const asked = Number(query.get('limit')) + (serving.extra ?? 0);
    const count = Math.max(0, Math.min(serving.cap ?? asked, asked, serving.total - offset));
    const rows = Array.from({ length: count }, (_, i) => ({ id: offset + i }));
    return { body: serving.envelope ? { items: rows, total: serving.total } : rows };
  };
}

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function rowsOf(
  serving: Serving,
  defaults: PagingOptions = {},
  operation: OperationDescription = listRows,
  assumptions: 'warn' | 'refuse' | 'off' = 'warn',
) {
  server = await startFaultServer({ '/rows': serve(serving) });
  const warnings: string[] = [];
  const client = createServiceClient<object>(
    {
      baseUrl: server.url,
      credentials: {},
      assumptions,
      logger: { warn: (message: string) => warnings.push(message) },
    },
    { auth: () => ({ secretHeaderNames: [], authorize: () => undefined }) },
  );
  const rows = createOffsetCollection<Row>(client, operation, defaults);
  const queries = () =>
    (server?.requestsTo('/rows') ?? []).map((r) => new URL(r.url, 'http://x').searchParams);
  return { rows, warnings, queries };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of iterable) all.push(item);
  return all;
}

const ids = (list: Row[]) => list.map((row) => row.id);
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('createOffsetCollection', () => {
  it('lists every record once and in order, whatever the prefetch', async () => {
    const { rows } = await rowsOf({ total: 300 });
    expect(ids(await collect(rows.list({ pageSize: 64, prefetch: 1 })))).toEqual(upTo(300));
    expect(ids(await collect(rows.list({ pageSize: 64, prefetch: 8 })))).toEqual(upTo(300));
    expect(ids(await collect(rows.list({ pageSize: 1000 })))).toEqual(upTo(300));
  });

  it("asks for the spec's default page size and sends every other parameter on every page", async () => {
    const { rows, queries } = await rowsOf({ total: 300 });
    const listed = rows.list({
      region: 'EU',
      modifiedSince: new Date('2026-01-31T23:30:00-02:00'),
    });
    expect(await collect(listed)).toHaveLength(300);
    const asked = queries().sort((a, b) => Number(a.get('offset')) - Number(b.get('offset')));
    expect(asked.slice(0, 3).map((q) => [q.get('limit'), q.get('offset')])).toEqual([
      ['128', '0'],
      ['128', '128'],
      ['128', '256'],
    ]);
    expect(
      asked.every((q) => q.get('region') === 'EU' && q.get('modifiedSince') === '2026-02-01'),
    ).toBe(true);
    // The short page at 256 is confirmed by one request right after it.
    expect(asked.map((q) => `${q.get('offset')}/${q.get('limit')}`)).toContain('300/44');
    expect(asked.length).toBeLessThanOrEqual(3 + DEFAULT_PREFETCH + 1);
  });

  it('uses the client defaults and lets a call override them', async () => {
    const { rows, queries } = await rowsOf({ total: 50 }, { pageSize: 20, prefetch: 1 });
    await collect(rows.list());
    expect(queries().map((q) => q.get('limit'))).toEqual(['20', '20', '20', '10']);
    expect(await rows.page()).toHaveLength(20);
    expect(await rows.page({ limit: 5, offset: 48 })).toEqual([{ id: 48 }, { id: 49 }]);
  });

  it('refuses what the spec states before any request, naming the argument', async () => {
    const { rows, queries } = await rowsOf({ total: 3 });
    const listing = (options: object) => () => rows.list(options as never);
    expect(listing({ pageSize: 1025 })).toThrow(
      new InvalidArgumentError(
        'options.pageSize',
        'must be an integer from 1 to 1024 (got 1025)',
        'rows.list',
      ),
    );
    expect(listing({ prefetch: 0 })).toThrow(
      'rows.list: options.prefetch must be an integer from 1 to 32',
    );
    expect(listing({ startOffset: -1 })).toThrow(
      'options.startOffset must be an integer of at least 0',
    );
    expect(listing({ modifiedSince: '2026-02-30' })).toThrow(
      'rows.list: options.modifiedSince must be a Date or a YYYY-MM-DD day (got "2026-02-30")',
    );
    expect(listing({ modifiedSince: new Date('nonsense') })).toThrow('(got an invalid Date)');
    expect(listing({ region: 'ASIA' })).toThrow(
      'options.region must be one of EU, US (got "ASIA")',
    );
    expect(listing({ regoin: 'EU' })).toThrow(
      'options.regoin is not a parameter of rows.list (use modifiedSince, region, minScore, country, limit, offset, signal',
    );
    expect(listing({ limit: 5 })).toThrow('options.limit is set by list');
    expect(listing({ country: 'nl' })).toThrow('options.country must match ^[A-Z]{2}$ (got "nl")');
    expect(listing({ country: 'fr' })).toThrow('options.country must match');
    expect(listing({ signal: 'stop' })).toThrow('signal must be an AbortSignal');
    expect(listing({ conversationId: 'a\r\nb' })).toThrow('options.conversationId must be');
    await expect(rows.page({ limit: 0 })).rejects.toThrow('rows.page: options.limit must be');
    await expect(rows.page({ limit: 1.5 })).rejects.toThrow(InvalidArgumentError);
    await expect(rows.page(null as never)).rejects.toThrow('rows.page: options must be');
    expect(queries()).toHaveLength(0);
  });

  it('sends a value that breaks only an assumed constraint, with a warning', async () => {
    const { rows, queries, warnings } = await rowsOf({ total: 3 });
    expect(await rows.page({ offset: -1, minScore: -5 })).toHaveLength(4);
    expect(queries()[0]?.get('offset')).toBe('-1');
    expect(queries()[0]?.get('minScore')).toBe('-5');
    expect(warnings.join('\n')).toContain('options.offset must be an integer of at least 0');
    expect(warnings.join('\n')).toContain('x-upstream-gap');
  });

  it('refuses an assumed constraint too when the client says so', async () => {
    const { rows, queries } = await rowsOf({ total: 3 }, {}, listRows, 'refuse');
    await expect(rows.page({ minScore: -5 })).rejects.toThrow(
      'rows.page: options.minScore must be an integer of at least 0 (got -5)',
    );
    expect(queries()).toHaveLength(0);
  });

  it('refuses bad defaults when the client is created, naming the option', async () => {
    server = await startFaultServer([{}]);
    const client = createServiceClient<object>(
      { baseUrl: server.url, credentials: {} },
      { auth: () => ({ secretHeaderNames: [], authorize: () => undefined }) },
    );
    const create = (defaults: PagingOptions) => () =>
      createOffsetCollection(client, listRows, defaults);
    expect(create({ pageSize: 2048 })).toThrow(
      new ConfigurationError('pageSize', 'must be an integer from 1 to 1024 (got 2048)'),
    );
    expect(create({ prefetch: 0 })).toThrow('prefetch: must be an integer');
    expect(create({ prefetch: 2.5 })).toThrow(ConfigurationError);
  });

  it('refuses an operation the table does not give paging', async () => {
    const plain = { ...listRows, paging: undefined } as OperationDescription;
    await expect(rowsOf({ total: 1 }, {}, plain)).rejects.toThrow(
      'listRows is not a paged read: its table has no paging',
    );
  });

  it('takes its limits from the spec: a changed maximum and default need no code', async () => {
    const smaller = {
      ...listRows,
      paging: { ...listRows.paging, pageSize: 25 },
      parameters: listRows.parameters.map((p) =>
        p.name === 'limit' ? { ...p, maximum: 50, default: 25 } : p,
      ),
    } as OperationDescription;
    const { rows, queries } = await rowsOf({ total: 60 }, {}, smaller);
    expect(() => rows.list({ pageSize: 51 })).toThrow('must be an integer from 1 to 50');
    await rows.page();
    expect(queries()[0]?.get('limit')).toBe('25');
  });

  it('finds the records in an envelope and keeps its other fields reachable', async () => {
    const enveloped = {
      ...listRows,
      response: { kind: 'json', type: 'object' },
      paging: { ...listRows.paging, records: 'items' },
    } as OperationDescription;
    const { rows } = await rowsOf({ total: 5, envelope: true }, {}, enveloped);
    const page = await rows.page({ limit: 2 });
    expect(page).toEqual([{ id: 0 }, { id: 1 }]);
    expect(page.envelope).toEqual({ items: [{ id: 0 }, { id: 1 }], total: 5 });
    const pages = await collect(rows.list({ pageSize: 2 }).pages());
    expect(pages.flatMap((p) => ids([...p.records]))).toEqual(upTo(5));
    expect(pages[0]?.envelope).toMatchObject({ total: 5 });
  });

  it('follows a service that caps pages below the asked size, losing nothing', async () => {
    const { rows, warnings } = await rowsOf({ total: 1000, cap: 100 });
    expect(ids(await collect(rows.list({ pageSize: 256, prefetch: 4 })))).toEqual(upTo(1000));
    expect(warnings.join('\n')).toContain('paging continues at 100 per page');
  });

  it('cuts a page longer than asked, so nothing comes twice', async () => {
    const { rows, warnings } = await rowsOf({ total: 100, extra: 7 });
    expect(ids(await collect(rows.list({ pageSize: 30 })))).toEqual(upTo(100));
    expect(warnings.join('\n')).toContain('answered 37 records where 30 were asked');
  });

  it('drops records repeated across pages by the record key the spec names', async () => {
    const keyed = {
      ...listRows,
      paging: { ...listRows.paging, recordKey: 'id' },
    } as OperationDescription;
    const { rows, warnings } = await rowsOf({ total: 100, shift: 3 }, {}, keyed);
    const listed = ids(await collect(rows.list({ pageSize: 20, prefetch: 1 })));
    expect(listed).toEqual(upTo(100));
    expect(warnings.join('\n')).toContain('repeated 3 records of the page before');
  });

  it('reports records that lack the record key instead of passing their repeats on silently', async () => {
    const keyed = {
      ...listRows,
      paging: { ...listRows.paging, recordKey: 'rowId' },
    } as OperationDescription;
    const { rows, warnings } = await rowsOf({ total: 40, shift: 3 }, {}, keyed);
    await collect(rows.list({ pageSize: 20, prefetch: 1 }));
    expect(warnings.join('\n')).toContain('records without their key');
  });

  it('without a record key, a repeat at a page boundary is an ApiError, not a duplicate', async () => {
    const { rows } = await rowsOf({ total: 100, shift: 3 });
    const error = await collect(rows.list({ pageSize: 20, prefetch: 1 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'inconsistent_paging' });
    expect((error as Error).message).toContain('no record key (x-record-key)');
  });

  it('a service that ignores offset ends in an ApiError, not an endless loop', async () => {
    const keyed = {
      ...listRows,
      paging: { ...listRows.paging, recordKey: 'id' },
    } as OperationDescription;
    const { rows } = await rowsOf({ total: 100, ignoreOffset: true }, {}, keyed);
    const error = await collect(rows.list({ pageSize: 20 })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'inconsistent_paging' });
  });

  it('turns an answer that is not the array of records into an ApiError', async () => {
    server = await startFaultServer({
      '/rows': [{ body: { items: [] } }, { body: [1, 2] }, { body: null }],
    });
    const client = createServiceClient<object>(
      { baseUrl: server.url, credentials: {} },
      { auth: () => ({ secretHeaderNames: [], authorize: () => undefined }) },
    );
    const rows = createOffsetCollection(client, listRows);
    await expect(rows.page()).rejects.toThrow(
      'rows.page answered 200 with an object where the spec promises an array',
    );
    await expect(rows.page()).rejects.toThrow('record 0 being a number, not an object');
    await expect(rows.page()).rejects.toMatchObject({ code: 'unexpected_response' });
  });

  it('stops the requests in flight when the loop is left', async () => {
    const held: RecordedRequest[] = [];
    server = await startFaultServer({
      '/rows': (request) => {
        const offset = Number(new URL(request.url, 'http://x').searchParams.get('offset'));
        if (offset < 20) return { body: upTo(10).map((i) => ({ id: offset + i })) };
        held.push(request);
        return { stall: true, body: '[]' };
      },
    });
    const client = createServiceClient<object>(
      { baseUrl: server.url, credentials: {} },
      { auth: () => ({ secretHeaderNames: [], authorize: () => undefined }) },
    );
    const rows = createOffsetCollection<Row>(client, listRows, {
      pageSize: 10,
      prefetch: 4,
    });
    const seen: Row[] = [];
    for await (const row of rows.list()) {
      seen.push(row);
      if (seen.length === 15) break;
    }
    expect(seen.at(-1)).toEqual({ id: 14 });
    await expect.poll(() => held.length > 0 && held.every((r) => r.aborted)).toBe(true);
  });
});

describe('a position the spec gives as a page index (x-paging: page)', () => {
  /** The same read, paged by a one-based page index. */
  const byPage = {
    ...listRows,
    parameters: listRows.parameters.map((p) =>
      p.name === 'offset' ? { ...p, paging: 'page' as const, minimum: 1, default: 1 } : p,
    ),
  } as unknown as typeof listRows;

  /** A collection of 10 rows served by a one-based page index. */
  async function pagedByIndex() {
    server = await startFaultServer({
      '/rows': (request: RecordedRequest) => {
        const query = new URL(request.url, 'http://x').searchParams;
        const limit = Number(query.get('limit'));
        const from = (Number(query.get('offset')) - 1) * limit;
        const count = Math.max(0, Math.min(limit, 10 - from));
        return { body: Array.from({ length: count }, (_, i) => ({ id: from + i })) };
      },
    });
    const client = createServiceClient<object>(
      { baseUrl: server.url, credentials: {} },
      { auth: () => ({ secretHeaderNames: [], authorize: () => undefined }) },
    );
    const rows = createOffsetCollection<Row>(client, byPage);
    const pages = () =>
      (server?.requestsTo('/rows') ?? []).map((r) =>
        new URL(r.url, 'http://x').searchParams.get('offset'),
      );
    return { rows, pages };
  }

  it('sends page numbers counted from the schema minimum, and reads every record once', async () => {
    const { rows, pages } = await pagedByIndex();
    expect(ids(await collect(rows.list({ pageSize: 3, prefetch: 1 })))).toEqual(upTo(10));
    expect(pages()).toEqual(['1', '2', '3', '4', '5']);
  });

  it('starts at a later page for a startOffset that is whole pages, and refuses another', async () => {
    const { rows, pages } = await pagedByIndex();
    const later = await collect(rows.list({ pageSize: 3, prefetch: 1, startOffset: 6 }));
    expect(ids(later)).toEqual([6, 7, 8, 9]);
    expect(pages()[0]).toBe('3');
    expect(() => rows.list({ pageSize: 3, startOffset: 4 })).toThrow(
      'rows.list: options.startOffset must be a multiple of pageSize (3): the service pages by page index',
    );
  });
});
