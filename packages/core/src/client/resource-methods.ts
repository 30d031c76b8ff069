import { InvalidArgumentError } from '@partner-apis/errors';
import { apiPromise, type ApiPromise } from '../operations/api-promise.js';
import type { CallOptions } from '../operations/call-options.js';
import { createOffsetCollection, type PagingOptions } from '../paging/offset-collection.js';
import { isRecord, type OperationDescription } from '../operations/operation.js';
import { expectData, withData } from '../operations/call-answer.js';
import type { ResourceClient } from '../operations/resource-client.js';
import { createSyncRun, type SyncOptions } from '../paging/sync.js';

/**
 * The method of one operation, as a generated resource calls it: its arguments in the order
 * the operation table gives them (path parameters, the body, the params object), then the call
 * options. Each argument is checked before any request; a 2xx answer without the JSON body the
 * spec promises is an `ApiError` (`unexpected_response`), except where the spec says the body
 * is optional (`x-optional-body`), which gives `{}`.
 */
export function operationMethod<F>(client: ResourceClient, operation: OperationDescription): F {
  const name = `${operation.resource}.${operation.verb}`;
  const { kind, bodyOptional } = operation.response;

  async function send(args: readonly unknown[]) {
    const path: Record<string, unknown> = {};
    let body: unknown;
    let params: Record<string, unknown> | undefined;
    operation.arguments.forEach((argument, i) => {
      const value = args[i];
      if (argument.in === 'path') path[argument.name] = value;
      else if (argument.in === 'body') {
        if (value === undefined && argument.required) {
          throw new InvalidArgumentError('body', 'is required', name);
        }
        if (value !== undefined && operation.body?.type === 'object' && !isRecord(value)) {
          throw new InvalidArgumentError('body', 'must be an object', name);
        }
        body = value;
      } else if (value !== undefined && !isRecord(value)) {
        throw new InvalidArgumentError('params', 'must be an object', name);
      } else params = value;
    });
    const options = args[operation.arguments.length] as CallOptions | undefined;
    const result = await client.call(operation, { path, params, body }, options, name);
    if (result.data !== undefined || kind !== 'json') return withData(result, result.data);
    return withData(result, bodyOptional === true ? {} : expectData(result, name));
  }

  const method = (...args: unknown[]): ApiPromise<unknown> => apiPromise(send(args));
  return method as F;
}

/** `list()`, `page()` and, where the table says it can, `sync()`, of one parent's records. */
function readsOf(
  client: ResourceClient,
  operation: OperationDescription,
  paging: PagingOptions,
  path: Record<string, unknown>,
) {
  const collection = createOffsetCollection(client, operation, paging, path);
  if (operation.paging?.syncable !== true) return collection;
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
 * The paged read of one operation (the table gives it `paging`), as a generated resource holds
 * it: `list()`, `page()` and `sync()`, with the client's paging defaults. Under path parameters
 * (the records of one parent), each method takes them first, in path order.
 */
export function pagedRead<R>(
  client: ResourceClient,
  operation: OperationDescription,
  paging: PagingOptions = {},
): R {
  const inPath = operation.arguments.flatMap((a) => (a.in === 'path' ? [a.name] : []));
  const reads = readsOf(client, operation, paging, {});
  if (inPath.length === 0) return reads as R;
  const method =
    (verb: string) =>
    (...args: unknown[]) => {
      const path: Record<string, unknown> = {};
      inPath.forEach((name, i) => (path[name] = args[i]));
      const under = readsOf(client, operation, paging, path) as Record<string, unknown>;
      return (under[verb] as (options: unknown) => unknown)(args[inPath.length]);
    };
  const verbs = Object.keys(reads);
  return Object.fromEntries(verbs.map((verb) => [verb, method(verb)])) as R;
}
