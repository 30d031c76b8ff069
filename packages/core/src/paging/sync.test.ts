import { InvalidArgumentError } from '@partner-apis/errors';
import { describe, expect, it } from 'vitest';
import type { OperationDescription } from '../operations/operation.js';
import { paginate, type PageRequest } from './paginate.js';
import { createSyncRun, type SyncCheckpoint } from './sync.js';

interface Row {
  id: string;
  modified: string;
  version: number;
}

/** A paged read as codegen describes it once the spec marks the watermark and the key. */
const listRows = {
  operationId: 'listRows',
  resource: 'rows',
  verb: 'list',
  method: 'GET',
  path: '/rows',
  arguments: [{ in: 'params', required: false }],
  parameters: [
    {
      name: 'modifiedSince',
      in: 'query',
      required: false,
      type: 'string',
      format: 'date',
      sync: 'watermark',
    },
    { name: 'region', in: 'query', required: false, type: 'string' },
    { name: 'limit', in: 'query', required: false, type: 'integer', paging: 'limit' },
    { name: 'offset', in: 'query', required: false, type: 'integer', paging: 'offset' },
  ],
  response: { kind: 'json', type: 'array' },
  paging: { pageSize: 100, records: null, itemType: 'object', recordKey: 'id', syncable: true },
  security: [],
} as const satisfies OperationDescription;

/**
 * An in-memory collection over `rows`, filtered by modified day like the service, paged by
 * the real `paginate`; `during` runs before each page is answered, to change the rows.
 */
function collectionOf(
  rows: Row[],
  during?: (request: PageRequest) => void,
  { ignoreOffset = false, cap = Infinity } = {},
) {
  const lists: Record<string, unknown>[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  return {
    lists,
    mostInFlight: () => mostInFlight,
    list(options: Record<string, unknown> = {}) {
      lists.push(options);
      const since = options.modifiedSince as string | undefined;
      return paginate<Row>({
        pageSize: (options.pageSize as number | undefined) ?? 3,
        prefetch: options.prefetch as number,
        startOffset: options.startOffset as number,
        signal: options.signal as AbortSignal | undefined,
        recordKey: (row) => row.id,
        fetchPage: async (request) => {
          inFlight += 1;
          mostInFlight = Math.max(mostInFlight, inFlight);
          await Promise.resolve();
          during?.(request);
          inFlight -= 1;
          const matching = rows.filter((row) => since === undefined || row.modified >= since);
          return matching
            .slice(
              ignoreOffset ? 0 : request.offset,
              (ignoreOffset ? 0 : request.offset) + Math.min(request.limit, cap),
            )
            .map((row) => ({ ...row }));
        },
      });
    },
  };
}

const row = (id: number, modified = '2026-03-01', version = 1): Row => ({
  id: `R${String(id).padStart(3, '0')}`,
  modified,
  version,
});
const rowsUpTo = (n: number, modified?: string) =>
  Array.from({ length: n }, (_, i) => row(i, modified));

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of iterable) all.push(item);
  return all;
}

const at = (iso: string) => () => new Date(iso);
const ids = (rows: readonly Row[]) => rows.map((r) => r.id);

describe('createSyncRun', () => {
  it('reads everything without a checkpoint, then only what changed since the day before the last run started', async () => {
    const rows = rowsUpTo(10, '2026-03-01');
    const source = collectionOf(rows);
    const first = createSyncRun(source, listRows, {}, { now: at('2026-03-05T13:00:00Z') });
    expect(ids(await collect(first))).toEqual(ids(rows));
    expect(first.checkpoint).toMatchObject({ since: null, next: '2026-03-04', complete: true });
    expect(source.lists[0]).not.toHaveProperty('modifiedSince');

    rows[2] = row(2, '2026-03-04', 2);
    rows[7] = row(7, '2026-03-06', 2);
    const second = createSyncRun(
      source,
      listRows,
      { checkpoint: first.checkpoint },
      { now: at('2026-03-06T09:00:00Z') },
    );
    expect(await collect(second)).toEqual([row(2, '2026-03-04', 2), row(7, '2026-03-06', 2)]);
    expect(source.lists.at(-1)).toMatchObject({ modifiedSince: '2026-03-04' });
    expect(second.checkpoint).toMatchObject({ since: '2026-03-04', next: '2026-03-05' });
  });

  it('rounds the watermark down to the day before the start, so a change on the start day is read again', () => {
    const midnight = createSyncRun(
      collectionOf([]),
      listRows,
      {},
      { now: at('2026-03-10T00:00:00Z') },
    );
    const late = createSyncRun(
      collectionOf([]),
      listRows,
      {},
      { now: at('2026-03-10T23:59:59.999Z') },
    );
    expect([midnight.checkpoint.next, late.checkpoint.next]).toEqual(['2026-03-09', '2026-03-09']);
    const dateTime = {
      ...listRows,
      parameters: [
        { ...listRows.parameters[0], format: 'date-time' },
        ...listRows.parameters.slice(1),
      ],
    } as const;
    const run = createSyncRun(collectionOf([]), dateTime, {}, { now: at('2026-03-10T12:00:00Z') });
    expect(run.checkpoint.next).toBe('2026-03-09T00:00:00.000Z');
  });

  it('saves the checkpoint after each handled page and resumes a stopped run from there, with its own watermark', async () => {
    const rows = rowsUpTo(10);
    const source = collectionOf(rows);
    const saved: SyncCheckpoint[] = [];
    const crashed = createSyncRun(
      source,
      listRows,
      { pageSize: 3, onCheckpoint: (c) => void saved.push(c) },
      { now: at('2026-03-05T13:00:00Z') },
    );
    const handled: Row[] = [];
    for await (const r of crashed) {
      if (handled.length === 5) break;
      handled.push(r);
    }
    // The loop left in the second page: only the first page counts as handled.
    expect(saved.map((c) => c.position)).toEqual([3]);
    expect(crashed.checkpoint).toMatchObject({ position: 3, complete: false, since: null });

    const resumed = createSyncRun(
      source,
      listRows,
      { pageSize: 3, checkpoint: JSON.parse(JSON.stringify(crashed.checkpoint)) },
      { now: at('2026-03-09T10:00:00Z') },
    );
    const rest = await collect(resumed);
    expect(ids(rest)).toEqual(ids(rows.slice(3)));
    expect(source.lists[1]).toMatchObject({ startOffset: 3 });
    expect(resumed.checkpoint).toMatchObject({ since: null, next: '2026-03-04', complete: true });
  });

  it('calls onCheckpoint before asking for the next page, and once more at the end', async () => {
    const events: string[] = [];
    const source = collectionOf(rowsUpTo(5), (request) => events.push(`page ${request.offset}`));
    const run = createSyncRun(source, listRows, {
      pageSize: 2,
      onCheckpoint: async (c) => {
        await Promise.resolve();
        events.push(`saved ${c.position}${c.complete ? ' complete' : ''}`);
      },
    });
    await collect(run);
    expect(events).toEqual([
      'page 0',
      'saved 2',
      'page 2',
      'saved 4',
      'page 4',
      'saved 5',
      'page 5',
      'saved 5 complete',
    ]);
  });

  it('ends at an empty page asked at the full page size, however insertions fill the end', async () => {
    const rows = rowsUpTo(7);
    const asked: string[] = [];
    const source = collectionOf(rows, (request) => {
      asked.push(`${request.offset}+${request.limit}`);
      // Each page after the short one finds two records more at the end.
      if (request.offset >= 7 && rows.length < 11)
        rows.push(row(rows.length), row(rows.length + 1));
    });
    const read = await collect(createSyncRun(source, listRows, { pageSize: 4 }));
    expect(ids(read)).toEqual(ids(rowsUpTo(11)));
    expect(asked).toEqual(['0+4', '4+4', '7+4', '9+4', '11+4']);
  });

  it('reads every record of a service that answers fewer records per page than asked', async () => {
    const source = collectionOf(rowsUpTo(10), undefined, { cap: 3 });
    const read = await collect(createSyncRun(source, listRows, { pageSize: 5 }));
    expect(ids(read)).toEqual(ids(rowsUpTo(10)));
  });

  it('asks one page at a time, so an insertion cannot shift a record past a page asked ahead', async () => {
    const source = collectionOf(rowsUpTo(40));
    await collect(createSyncRun(source, listRows, { pageSize: 4 }));
    expect(source.mostInFlight()).toBe(1);
    expect(source.lists[0]).toMatchObject({ prefetch: 1 });
  });

  it('gives each record once per run by its key, even when the service repeats it pages later', async () => {
    const rows = rowsUpTo(9);
    const source = collectionOf(rows, (request) => {
      // Four insertions ahead shift the third page back over the first two: R002 comes again
      // two pages after its own, R005 on the page after.
      if (request.offset === 6) rows.unshift(row(101), row(102), row(103), row(104));
    });
    const read = await collect(createSyncRun(source, listRows, { pageSize: 3 }));
    expect(ids(read).sort()).toEqual(ids(rowsUpTo(9)).sort());
    expect(new Set(ids(read)).size).toBe(read.length);
  });

  it('lists again from the checkpoint when insertions make a whole page repeat the one before', async () => {
    const rows = rowsUpTo(9);
    const source = collectionOf(rows, (request) => {
      if (request.offset === 3 && rows.length === 9) rows.unshift(row(101), row(102), row(103));
    });
    const read = await collect(createSyncRun(source, listRows, { pageSize: 3 }));
    expect(ids(read)).toEqual(ids(rowsUpTo(9)));
    expect(source.lists.map((options) => options.startOffset)).toEqual([0, 3]);
  });

  it('gives up on a service that ignores the offset after three fresh listings without a new record', async () => {
    const source = collectionOf(rowsUpTo(9), undefined, { ignoreOffset: true });
    await expect(collect(createSyncRun(source, listRows, { pageSize: 3 }))).rejects.toMatchObject({
      code: 'inconsistent_paging',
    });
    expect(source.lists.map((options) => options.startOffset)).toEqual([0, 3, 6, 9]);
  });

  it('leaves a record inserted behind the cursor to the next run, which reads it', async () => {
    const rows = rowsUpTo(9, '2026-03-01');
    const inserted = row(100, '2026-03-05');
    const source = collectionOf(rows, (request) => {
      if (request.offset === 6) rows.unshift(inserted);
    });
    const first = createSyncRun(
      source,
      listRows,
      { pageSize: 3 },
      { now: at('2026-03-05T08:00:00Z') },
    );
    const firstRead = await collect(first);
    expect(ids(firstRead)).not.toContain(inserted.id);
    expect(ids(firstRead).sort()).toEqual(ids(rowsUpTo(9)));
    const second = createSyncRun(
      source,
      listRows,
      { pageSize: 3, checkpoint: first.checkpoint },
      { now: at('2026-03-06T08:00:00Z') },
    );
    expect(await collect(second)).toEqual([inserted]);
  });

  it('keeps the other filters in the checkpoint and refuses it for other filters', async () => {
    const source = collectionOf(rowsUpTo(2));
    const run = createSyncRun(source, listRows, { region: 'EU' });
    await collect(run);
    expect(run.checkpoint.filters).toEqual({ region: 'EU' });
    expect(source.lists[0]).toMatchObject({ region: 'EU' });
    const again = createSyncRun(source, listRows, { region: 'EU', checkpoint: run.checkpoint });
    expect(again.checkpoint.since).toBe(run.checkpoint.next);
    expect(() =>
      createSyncRun(source, listRows, { region: 'US', checkpoint: run.checkpoint }),
    ).toThrow(/options\.checkpoint was written with the filters \{"region":"EU"\}/);
  });

  it('accepts the checkpoint as JSON text', async () => {
    const first = createSyncRun(collectionOf(rowsUpTo(2)), listRows, {});
    await collect(first);
    const second = createSyncRun(collectionOf([]), listRows, {
      checkpoint: JSON.stringify(first.checkpoint),
    });
    expect(second.checkpoint.since).toBe(first.checkpoint.next);
  });

  const good: SyncCheckpoint = {
    version: 1,
    operation: 'listRows',
    filters: {},
    since: '2026-03-01',
    next: '2026-03-04',
    position: 6,
    complete: false,
  };
  it.each<[string, unknown, RegExp]>([
    ['text that is not JSON', '{"version":', /is not JSON/],
    ['a number', 42, /must be the checkpoint object/],
    ['an array', [good], /must be the checkpoint object/],
    ['another format', { ...good, version: 2 }, /has version 2; this client reads 1/],
    ['no format', { ...good, version: undefined }, /has version undefined/],
    ['another operation', { ...good, operation: 'listOthers' }, /written for "listOthers"/],
    ['no filters', { ...good, filters: 'EU' }, /has no filters object/],
    ['a since that is no day', { ...good, since: '2026-02-30' }, /since that is not a date/],
    ['a since of another kind', { ...good, since: 20260301 }, /since that is not a date/],
    ['a next that is no day', { ...good, next: null }, /next that is not a date/],
    ['a negative position', { ...good, position: -1 }, /position that is not a non-negative/],
    ['a fractional position', { ...good, position: 1.5 }, /position that is not a non-negative/],
    ['a position as text', { ...good, position: '6' }, /position that is not a non-negative/],
    ['no complete flag', { ...good, complete: 'no' }, /has no complete flag/],
  ])('refuses a checkpoint that is %s with an InvalidArgumentError', (_, checkpoint, message) => {
    let thrown: unknown;
    try {
      createSyncRun(collectionOf([]), listRows, { checkpoint });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidArgumentError);
    expect(thrown).toMatchObject({ argument: 'options.checkpoint', operation: 'rows.sync' });
    expect((thrown as Error).message).toMatch(message);
  });

  it('refuses the options a sync sets itself', () => {
    for (const name of ['modifiedSince', 'startOffset', 'prefetch']) {
      expect(() => createSyncRun(collectionOf([]), listRows, { [name]: 1 })).toThrow(
        `rows.sync: options.${name} is set by sync from the checkpoint`,
      );
    }
  });

  it('is iterated once', async () => {
    const run = createSyncRun(collectionOf(rowsUpTo(1)), listRows, {});
    await collect(run);
    expect(() => run[Symbol.asyncIterator]()).toThrow(/iterated once/);
  });

  it('needs the watermark and the record key from the spec', () => {
    const noWatermark = {
      ...listRows,
      parameters: [{ ...listRows.parameters[0], sync: undefined }, ...listRows.parameters.slice(1)],
    };
    const noKey = { ...listRows, paging: { pageSize: 100, records: null } } as const;
    expect(() => createSyncRun(collectionOf([]), noWatermark, {})).toThrow(
      'listRows declares no x-sync: watermark query parameter',
    );
    expect(() => createSyncRun(collectionOf([]), noKey, {})).toThrow(
      'listRows names no x-record-key',
    );
  });
});
