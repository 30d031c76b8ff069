import { ApiError, InvalidArgumentError } from '@partner-apis/errors';
import type { ListCallOptions } from './offset-collection.js';
import type { OperationDescription, ParameterDescription } from '../operations/operation.js';
import type { Paginated } from './paginate.js';

/**
 * Where a sync stands, as plain JSON: save it after every page (or at the end) and hand it to
 * the next run. `complete: false` is a run that stopped part-way, which the next run resumes.
 */
export interface SyncCheckpoint {
  /** The checkpoint format; a later format is refused rather than misread. */
  readonly version: 1;
  /** The operation the run reads, so a checkpoint cannot be fed to another collection. */
  readonly operation: string;
  /** The run's other filters, as sent; resuming with other filters is refused. */
  readonly filters: Readonly<Record<string, unknown>>;
  /** The watermark this run reads from (`YYYY-MM-DD`, or a date-time); `null` reads everything. */
  readonly since: string | null;
  /** The watermark the next run reads from: the day before this run started (UTC). */
  readonly next: string;
  /** Where the run resumes: a record index no further than the records it has handed out. */
  readonly position: number;
  /** Whether this run reached the end of the collection. */
  readonly complete: boolean;
}

/** What `sync()` takes beside an operation's filters: the page size, the call's options, and where to start. */
export interface SyncRunOptions extends Omit<ListCallOptions, 'startOffset' | 'prefetch'> {
  /** The checkpoint of an earlier run (the object or its JSON text); none reads everything. */
  checkpoint?: unknown;
  /**
   * Called with the checkpoint after every page whose records the loop has handled, and at the
   * end; the next page is asked for once it settles, so a save here is never ahead of the data.
   */
  onCheckpoint?: ((checkpoint: SyncCheckpoint) => void | Promise<void>) | undefined;
}

/** A sync run: the changed records, once each, and where the run stands. */
export interface SyncRun<T> extends AsyncIterable<T> {
  /** JSON-serialisable; current after every page the loop has handled. */
  readonly checkpoint: SyncCheckpoint;
}

/** Options of a sync run: the operation's filters but its watermark, and `SyncRunOptions`. */
export type SyncOptions = SyncRunOptions & Record<string, unknown>;

/** What `createSyncRun` needs of a collection (`OffsetCollection` has it): `list`. */
export interface SyncSource<T> {
  list(options?: ListCallOptions & Record<string, unknown>): Paginated<T>;
}

/** How a run is named in messages, and its clock (tests give one). */
export interface SyncContext {
  /** The collection's name in messages (`locations.sync: …`); the operation's resource by default. */
  readonly name?: string | undefined;
  /** The clock the run's start is read from; the system clock by default. */
  readonly now?: (() => Date) | undefined;
}

const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const OPTIONS_SET_BY_SYNC = ['startOffset', 'prefetch'] as const;
/** Fresh listings after `inconsistent_paging` without a new record, before the error stands. */
const RESTARTS_WITHOUT_NEW_RECORD = 3;

function watermarkParameter(operation: OperationDescription): ParameterDescription {
  const parameter = operation.parameters.find((p) => p.in === 'query' && p.sync === 'watermark');
  if (parameter === undefined) {
    throw new Error(`${operation.operationId} declares no x-sync: watermark query parameter`);
  }
  if (parameter.format !== 'date' && parameter.format !== 'date-time') {
    throw new Error(
      `${operation.operationId}: the watermark ${parameter.name} must have format date or date-time`,
    );
  }
  return parameter;
}

/**
 * The watermark for a run starting at `start`: the day before, as the parameter takes it. The
 * filter's granularity is a day, so a run starting at noon must read from midnight (same-day
 * changes are read again, never missed); one day earlier still, because the service does not
 * publish the time zone of its days nor is its clock ours.
 */
function watermarkOf(parameter: ParameterDescription, start: Date): string {
  const day = new Date(Math.floor(start.getTime() / DAY_MS) * DAY_MS - DAY_MS).toISOString();
  return parameter.format === 'date' ? day.slice(0, 10) : day;
}

function isWatermark(parameter: ParameterDescription, value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const day = value.slice(0, 10);
  const shaped = parameter.format === 'date' ? DAY.test(value) : value === `${day}T00:00:00.000Z`;
  return shaped && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day);
}

/** Filters as one canonical JSON text, so the same filters given in another order compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The filters as JSON keeps them (a `Date` as its ISO text), for the checkpoint. */
function jsonFilters(filters: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(filters)) as Record<string, unknown>;
}

/**
 * Reads a checkpoint back, refusing anything this function did not write for the same
 * operation and filters: a clear `InvalidArgumentError` rather than a misread position.
 */
function readCheckpoint(
  raw: unknown,
  operation: OperationDescription,
  watermark: ParameterDescription,
  filters: Record<string, unknown>,
  callName: string,
): SyncCheckpoint {
  const fail = (problem: string) =>
    new InvalidArgumentError('options.checkpoint', problem, callName);
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw fail('is not JSON (pass the checkpoint of an earlier run, or none)');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw fail('must be the checkpoint object of an earlier run');
  }
  const c = value as Record<string, unknown>;
  if (c.version !== 1) {
    throw fail(`has version ${JSON.stringify(c.version) ?? 'undefined'}; this client reads 1`);
  }
  if (c.operation !== operation.operationId) {
    throw fail(
      `was written for ${JSON.stringify(c.operation) ?? 'no operation'}, not ${operation.operationId}`,
    );
  }
  if (typeof c.filters !== 'object' || c.filters === null || Array.isArray(c.filters)) {
    throw fail('has no filters object');
  }
  if (canonical(c.filters) !== canonical(jsonFilters(filters))) {
    throw fail(
      `was written with the filters ${canonical(c.filters)}, not ${canonical(jsonFilters(filters))}; ` +
        'start without a checkpoint to sync other filters',
    );
  }
  if (c.since !== null && !isWatermark(watermark, c.since)) {
    throw fail(`has a since that is not a ${watermark.format} watermark or null`);
  }
  if (!isWatermark(watermark, c.next)) {
    throw fail(`has a next that is not a ${watermark.format} watermark`);
  }
  if (typeof c.position !== 'number' || !Number.isSafeInteger(c.position) || c.position < 0) {
    throw fail('has a position that is not a non-negative integer');
  }
  if (typeof c.complete !== 'boolean') throw fail('has no complete flag');
  return {
    version: 1,
    operation: operation.operationId,
    filters: c.filters as Record<string, unknown>,
    since: c.since as string | null,
    next: c.next,
    position: c.position,
    complete: c.complete,
  };
}

/**
 * One incremental sync of an offset-paged collection whose read has a watermark filter (the
 * query parameter the spec marks `x-sync: watermark`, e.g. `modifiedSince`) and a record key
 * (`x-record-key`). Iterate it and upsert each record by its key; save `run.checkpoint` (in
 * `onCheckpoint`, or after the loop) and give it to the next run.
 *
 * - Without a checkpoint the run reads everything. After a complete run, the next reads what
 *   changed since the day before the earlier run started (UTC): the filter counts in days, so
 *   changes of the start day are read again, never missed, and the extra day covers a service
 *   whose days are another time zone's or whose clock is off.
 * - A run that stopped (a crash, Ctrl+C, a failed page) resumes from its last handled page,
 *   with the same watermark; records of the page it stopped in may come again.
 * - Records are deduplicated by key within one iteration (the keys stay in memory for the run).
 *   Pages are read one at a time, never prefetched, so a record that is neither moved nor
 *   deleted is read at least once however many records are inserted or modified meanwhile.
 * - A record inserted or modified while the run pages may be passed by the cursor; it carries
 *   a modification day after the run's start, so the next run reads it.
 * - Insertions can make a page repeat the one before (`inconsistent_paging` of `list`): the run
 *   lists again from its checkpoint, as a resume would; the error stands when that happens
 *   three times without a new record (a service that ignores the offset).
 *
 * The guarantee, for a service that keeps its records in a stable order (a modified record
 * keeps its place, a new one may come anywhere): after two consecutive complete runs, every
 * record modified before the second run started is in the mirror, in its version as of that
 * start or a later one. Why: while the filter holds a record (a modification only moves its day
 * later), its position can only grow, by records inserted or entering the filter before it;
 * pages are contiguous and asked one after the other, so the first page whose end lies past the
 * record's position holds it, and a resume starts no further than where the stopped run was.
 * What the second run's filter does not hold was last modified before the first run started,
 * which read it. Deletions are not visible through the watermark: run without a checkpoint now
 * and then (weekly, say) and delete from the mirror every key the full run did not return; a
 * full run also repairs a mirror of a service that reorders records.
 *
 * Checkpoints are checked when read: one of another operation, other filters, another format
 * or a damaged one is an `InvalidArgumentError` naming `options.checkpoint`.
 */
export function createSyncRun<T = Record<string, unknown>>(
  collection: SyncSource<T>,
  operation: OperationDescription,
  options: SyncOptions = {},
  context: SyncContext = {},
): SyncRun<T> {
  const callName = `${context.name ?? operation.resource}.sync`;
  const recordKey = operation.paging?.recordKey;
  if (recordKey === undefined) {
    throw new Error(`${operation.operationId} names no x-record-key to deduplicate a sync by`);
  }
  const resolved = resolveSyncOptions(options, operation, callName);
  const { watermark, filters, listOptions } = resolved;
  const pass: SyncPass<T> = {
    checkpoint: firstCheckpoint(resolved, operation, context, callName),
    recordKey,
    pageSize: Number(listOptions.pageSize),
    report: resolved.onCheckpoint,
    list: (startOffset) =>
      collection.list({
        ...filters,
        ...(pass.checkpoint.since === null ? {} : { [watermark.name]: pass.checkpoint.since }),
        ...listOptions,
        startOffset,
      }),
  };
  // Listed now, so a bad filter or page size is refused here rather than at the first page.
  const listed = pass.list(pass.checkpoint.position);
  let started = false;
  return {
    get checkpoint() {
      return pass.checkpoint;
    },
    [Symbol.asyncIterator]() {
      if (started) {
        throw new Error(`${callName}: a run is iterated once; start the next from its checkpoint`);
      }
      started = true;
      return syncRecords(pass, listed);
    },
  };
}

/** A sync's options, checked: its filters apart from what it sends on every listing. */
interface ResolvedSync {
  readonly watermark: ParameterDescription;
  readonly saved: unknown;
  readonly onCheckpoint: SyncRunOptions['onCheckpoint'];
  readonly filters: Record<string, unknown>;
  readonly listOptions: Readonly<Record<string, unknown>>;
}

function resolveSyncOptions(
  options: unknown,
  operation: OperationDescription,
  callName: string,
): ResolvedSync {
  const watermark = watermarkParameter(operation);
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('options', 'must be an object', callName);
  }
  const { checkpoint, onCheckpoint, pageSize, signal, conversationId, timeout, retry, ...filters } =
    options as Record<string, unknown>;
  for (const name of [...OPTIONS_SET_BY_SYNC, watermark.name]) {
    if (filters[name] !== undefined) {
      throw new InvalidArgumentError(
        `options.${name}`,
        'is set by sync from the checkpoint; pass the checkpoint instead',
        callName,
      );
    }
  }
  if (onCheckpoint !== undefined && typeof onCheckpoint !== 'function') {
    throw new InvalidArgumentError('options.onCheckpoint', 'must be a function', callName);
  }
  const listOptions = {
    pageSize: pageSize ?? operation.paging?.pageSize,
    signal,
    conversationId,
    timeout,
    retry,
    // A page asked before the one ahead of it is answered could see records shift past it.
    prefetch: 1,
  };
  return {
    watermark,
    saved: checkpoint,
    onCheckpoint: onCheckpoint as SyncRunOptions['onCheckpoint'],
    filters,
    listOptions,
  };
}

/** Where a run starts: the saved run it resumes, or a new run after the saved complete one. */
function firstCheckpoint(
  { saved, watermark, filters }: ResolvedSync,
  operation: OperationDescription,
  context: SyncContext,
  callName: string,
): SyncCheckpoint {
  const earlier =
    saved === undefined || saved === null
      ? undefined
      : readCheckpoint(saved, operation, watermark, filters, callName);
  if (earlier !== undefined && !earlier.complete) return earlier;
  return {
    version: 1,
    operation: operation.operationId,
    filters: jsonFilters(filters),
    since: earlier?.next ?? null,
    next: watermarkOf(watermark, (context.now ?? (() => new Date()))()),
    position: 0,
    complete: false,
  };
}

/** One run as it goes: its checkpoint moves on after every page the loop has handled. */
interface SyncPass<T> {
  checkpoint: SyncCheckpoint;
  readonly recordKey: string;
  readonly pageSize: number;
  readonly report: SyncRunOptions['onCheckpoint'];
  /** A listing from a record index, with the checkpoint's watermark. */
  readonly list: (startOffset: number) => Paginated<T>;
}

async function* syncRecords<T>(pass: SyncPass<T>, first: Paginated<T>): AsyncGenerator<T> {
  const seen = new Set<unknown>();
  const progress = { restarts: 0 };
  let listed = first;
  for (;;) {
    let short: boolean;
    try {
      short = yield* readListing(pass, listed, seen, progress);
    } catch (error) {
      // Insertions while paging can make a page repeat the one before: a fresh listing from
      // the checkpoint is a resume, and the records it gives again are dropped by key. A
      // service that ignores the offset gives no new record, so the error stands after a few.
      const repeated = error instanceof ApiError && error.code === 'inconsistent_paging';
      if (!repeated || progress.restarts >= RESTARTS_WITHOUT_NEW_RECORD) throw error;
      progress.restarts += 1;
      short = true;
    }
    if (!short) break;
    listed = pass.list(pass.checkpoint.position);
  }
  pass.checkpoint = { ...pass.checkpoint, complete: true };
  await pass.report?.(pass.checkpoint);
}

/** The records of one listing new to the run; returns whether it ended at a short page. */
async function* readListing<T>(
  pass: SyncPass<T>,
  listed: Paginated<T>,
  seen: Set<unknown>,
  progress: { restarts: number },
): AsyncGenerator<T, boolean> {
  for await (const page of listed.pages()) {
    for (const record of page.records) {
      const key = (record as Record<string, unknown> | null)?.[pass.recordKey];
      if (key !== undefined) {
        if (seen.has(key)) continue;
        seen.add(key);
      }
      // Only a record new to the run is progress: a listing started afresh has no page
      // before its first to find repeats in.
      progress.restarts = 0;
      yield record;
    }
    // Past the page only now that the loop has handled its last record. paginate may have
    // dropped repeats, so the records it gave are a lower bound of the page's extent.
    pass.checkpoint = { ...pass.checkpoint, position: page.offset + page.records.length };
    await pass.report?.(pass.checkpoint);
    // A short page is the end as it stood when the page was read: every record the run has
    // not passed was on it. paginate would confirm it at the short page's size and, should
    // insertions fill that confirmation, take it for a service capping its pages; a fresh
    // listing asks at the full size and ends at an empty page.
    if (page.records.length < pass.pageSize) return true;
  }
  return false;
}
