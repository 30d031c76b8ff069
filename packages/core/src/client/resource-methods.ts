import { InvalidArgumentError } from '@partner-apis/errors';
import { apiPromise, type ApiPromise } from '../operations/api-promise.js';
import type { CallOptions } from '../operations/call-options.js';
import {
  createOffsetCollection,
  type DateNames,
  type OffsetCollection,
  type PagingOptions,
  type ResponseBodyOf,
  type WithDates,
} from '../paging/offset-collection.js';
import {
  isRecord,
  type OperationDescription,
  type ParameterDescription,
} from '../operations/operation.js';
import { expectData, withData } from '../operations/call-answer.js';
import type { ResourceClient } from '../operations/resource-client.js';
import { createSyncRun, type SyncOptions, type SyncRun } from '../paging/sync.js';

/** The JSON request body of an operation of openapi-typescript's `operations`. */
export type RequestBodyOf<Op> = Op extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/**
 * One record of a paged read: an item of the answer's array, bare (`K` null) or in the
 * envelope's property `K` (the spec's `x-records`, or its one array).
 */
export type RecordOf<Op, K extends string | null = null> = [K] extends [string]
  ? NonNullable<ResponseBodyOf<Op>[K & keyof ResponseBodyOf<Op>]> extends readonly (infer T)[]
    ? T
    : never
  : ResponseBodyOf<Op> extends readonly (infer T)[]
    ? T
    : never;

/**
 * The query object of a call of operation `Op` (described by `D`): its query parameters, a
 * `Date` accepted for each `date` or `date-time` one.
 */
export type CallQuery<Op, D extends OperationDescription> = Op extends {
  parameters: { query?: infer Q };
}
  ? [NonNullable<Q>] extends [never]
    ? object
    : WithDates<NonNullable<Q>, DateNames<D>>
  : object;

/** What a paged read with a watermark filter (`x-sync: watermark`) adds: `sync()`. */
export interface Syncable<T, Q, D extends OperationDescription> {
  /**
   * The records changed since the last complete run, as a checkpointed run: resumes a run that
   * stopped part-way, and hands the watermark of the next run over in `run.checkpoint`.
   *
   * @example
   * const run = client.locations.sync({ checkpoint: saved });
   * for await (const record of run) await upsert(record);
   * await save(run.checkpoint);
   */
  sync(options?: SyncOptions<Q, D>): SyncRun<T>;
}

/**
 * A paged read: `list()` pages through every record, `page()` reads one page, and where the
 * spec marks a watermark filter, `sync()` reads what changed since the last run.
 */
export type PagedRead<T, Q, D extends OperationDescription, E> = OffsetCollection<T, Q, D, E> &
  (Extract<D['parameters'][number], { readonly sync: 'watermark' }> extends never
    ? unknown
    : D['response'] extends { readonly recordKey: string }
      ? Syncable<T, Q, D>
      : unknown);

/** The path parameters of an operation in the order its path names them. */
function pathParameters(operation: OperationDescription): ParameterDescription[] {
  const { path } = operation;
  return operation.parameters
    .filter((p) => p.in === 'path')
    .sort((a, b) => path.indexOf(`{${a.name}}`) - path.indexOf(`{${b.name}}`));
}

/**
 * The method of one operation, as a generated resource calls it: path parameters first (in
 * path order), then the body (where the operation has one), then the query object (where it
 * has query parameters), then the call options. Each argument is checked before any request;
 * a 2xx answer without the body the spec promises is an `ApiError` (`unexpected_response`),
 * except where the spec says the body is optional (`x-optional-body`), which gives `{}`.
 *
 * @example
 * const get = operationMethod<(quoteId: string) => ApiPromise<Quote>>(client, getQuote);
 * const quote = await get('QTE-2026-0004417');
 */
export function operationMethod<F>(client: ResourceClient, operation: OperationDescription): F {
  const name = `${operation.resource}.${operation.verb}`;
  const inPath = pathParameters(operation);
  const { body: bodyDescription } = operation;
  const hasQuery = operation.parameters.some((p) => p.in === 'query');
  const { type, bodyOptional } = operation.response;

  async function send(args: readonly unknown[]) {
    let next = 0;
    let path: Record<string, unknown> | undefined;
    for (const parameter of inPath) (path ??= {})[parameter.name] = args[next++];
    let body: unknown;
    if (bodyDescription !== undefined) {
      body = args[next++];
      if (body === undefined && bodyDescription.required) {
        throw new InvalidArgumentError('body', 'is required', name);
      }
      if (body !== undefined && bodyDescription.type === 'object' && !isRecord(body)) {
        throw new InvalidArgumentError('body', 'must be an object', name);
      }
    }
    let query: Record<string, unknown> | undefined;
    if (hasQuery) {
      const given = args[next++];
      if (given !== undefined && !isRecord(given)) {
        throw new InvalidArgumentError('query', 'must be an object', name);
      }
      query = given;
    }
    const options = args[next] as CallOptions | undefined;
    const result = await client.call(operation, { path, query, body }, options, name);
    if (result.data !== undefined || type === undefined) return withData(result, result.data);
    return withData(result, bodyOptional === true ? {} : expectData(result, name));
  }

  const method = (...args: unknown[]): ApiPromise<unknown> => apiPromise(send(args));
  return method as F;
}

/** `list()`, `page()` and, where the spec marks a watermark and a record key, `sync()`. */
function readsOf(
  client: ResourceClient,
  operation: OperationDescription,
  paging: PagingOptions,
  path: Record<string, unknown> | undefined,
) {
  const collection = createOffsetCollection(client, operation, operation.resource, paging, path);
  const syncable =
    operation.response.recordKey !== undefined &&
    operation.parameters.some((p) => p.in === 'query' && p.sync === 'watermark');
  if (!syncable) return collection;
  return {
    ...collection,
    // The client-wide page size applies to sync too; a run's own wins.
    sync: (options?: SyncOptions) =>
      createSyncRun(
        collection,
        operation,
        isRecord(options) || options === undefined
          ? { pageSize: paging.pageSize, ...options }
          : options,
      ),
  };
}

/**
 * The paged read of one operation (its parameters declare `x-paging`), as a generated resource
 * holds it: `list()` and `page()`, with the client's paging defaults. Under path parameters (the
 * records of one parent), each method takes them first, in path order.
 *
 * @example
 * const gradings = pagedRead<Resources['gradings']>(client, listGradings, { prefetch: 8 });
 */
export function pagedRead<R>(
  client: ResourceClient,
  operation: OperationDescription,
  paging: PagingOptions = {},
): R {
  const inPath = pathParameters(operation);
  if (inPath.length === 0) return readsOf(client, operation, paging, undefined) as R;
  const under = (args: readonly unknown[]) => {
    const path: Record<string, unknown> = {};
    inPath.forEach((parameter, i) => (path[parameter.name] = args[i]));
    return readsOf(client, operation, paging, path) as Record<
      string,
      (options: unknown) => unknown
    >;
  };
  const method =
    (verb: string) =>
    (...args: unknown[]) =>
      under(args)[verb]?.(args[inPath.length]);
  const verbs = Object.keys(readsOf(client, operation, paging, {}));
  return Object.fromEntries(verbs.map((verb) => [verb, method(verb)])) as R;
}
