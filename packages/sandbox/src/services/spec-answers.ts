import type { OperationModel, PagingModel } from '@partner-apis/spec-model';
import { GeneratedCollection } from '../data/collection.js';
import { generate, withExamples, type ArrayLengths } from '../data/generate.js';
import { recordKey, recordWriter, type Reference } from '../data/records.js';
import { hash, hashString } from '../data/random.js';
import { json, jsonText, type Reply } from '../http/reply.js';
import type { Route } from '../spec/router.js';
import type { Handler, ServiceDefinition } from './service.js';

/** A one-pixel PNG: the answer of an operation that sends a PNG image. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** The schema prepared for the generator, and the bodies generated, of each operation. */
const prepared = new WeakMap<OperationModel, { schema: unknown; bodies: Map<string, string> }>();
// Generating a body costs about a millisecond; the bodies of this many keys per operation are
// kept, so a test that asks for the same resource again and again is not slowed down.
const CACHED_BODIES = 1000;

/**
 * The success body of an operation, generated from its schema and examples: the same for the
 * same seed and key, and a fresh object on every call.
 */
export function specBody(
  operation: OperationModel,
  seed: number,
  key: number,
  arrays?: ArrayLengths,
): unknown {
  const { success } = operation;
  let entry = prepared.get(operation);
  if (entry === undefined) {
    entry = { schema: withExamples(success?.schema, success?.examples ?? []), bodies: new Map() };
    prepared.set(operation, entry);
  }
  const id = `${seed}:${key}:${arrays?.minItems}:${arrays?.maxItems}`;
  let text = entry.bodies.get(id);
  if (text === undefined) {
    text = JSON.stringify(
      generate(entry.schema, hash(seed, hashString(operation.operationId), key), arrays),
    );
    if (entry.bodies.size >= CACHED_BODIES) entry.bodies.delete(entry.bodies.keys().next().value!);
    entry.bodies.set(id, text);
  }
  return JSON.parse(text) as unknown;
}

function pagedHandler(
  route: Route<ServiceDefinition>,
  paging: PagingModel,
  collection: GeneratedCollection,
  seed: number,
): Handler {
  const { operation } = route;
  const status = operation.success!.status;
  // The envelope's other fields are the same on every page; those named as a paging parameter
  // say the page answered.
  const { records: recordsProperty, watermark } = paging;
  const envelope =
    recordsProperty === null
      ? undefined
      : (specBody(operation, seed, 0) as Record<string, unknown>);
  return ({ query }) => {
    const limit = (query[paging.limit] as number | undefined) ?? paging.defaultPageSize;
    const { name, base, unit } = paging.position;
    const position = (query[name] as number | undefined) ?? base;
    const records = collection.page({
      // Records are filtered only where the spec shows the field the watermark reads.
      since: watermark?.field && (query[watermark.parameter] as string | undefined),
      limit,
      offset: (position - base) * (unit === 'page' ? limit : 1),
    });
    if (envelope === undefined) return jsonText(status, records);
    const head: Record<string, unknown> = { ...envelope };
    delete head[recordsProperty!];
    if (paging.limit in head) head[paging.limit] = limit;
    if (name in head) head[name] = position;
    const text = JSON.stringify(head);
    const field = `${JSON.stringify(recordsProperty)}:${records}`;
    return jsonText(status, text === '{}' ? `{${field}}` : `${text.slice(0, -1)},${field}}`);
  };
}

/**
 * Handlers for the routes that have no hand-written one, answered from the spec: a paged read
 * pages through a generated collection (its size from `sizeOf`), filtered by its watermark;
 * any other operation answers its success status with a body generated from the schema and
 * its examples, the same for the same path parameters.
 */
export function specHandlers(
  routes: readonly Route<ServiceDefinition>[],
  seed: number,
  sizeOf: (routeId: string) => number,
): Map<string, Handler> {
  const handlers = new Map<string, Handler>();
  const generic = routes.filter(
    (route) =>
      route.operation.success !== undefined &&
      route.service.handlers[route.operation.operationId] === undefined,
  );
  const paged = generic.flatMap((route) => {
    const { paging } = route.operation;
    return paging ? [{ route, paging }] : [];
  });
  // A field named as the key of another collection of the service points at its records.
  const referencesOf = (route: Route<ServiceDefinition>) => {
    const references = new Map<string, Reference>();
    for (const other of paged) {
      const key = recordKey(other.paging);
      if (other.route === route || other.route.service !== route.service || key === undefined) {
        continue;
      }
      references.set(other.paging.recordKey!, { size: sizeOf(other.route.id), key });
    }
    return references;
  };
  for (const { route, paging } of paged) {
    const references = referencesOf(route);
    references.delete(paging.recordKey ?? '');
    const write = recordWriter(paging, seed, hashString(route.id), references);
    const collection = new GeneratedCollection(sizeOf(route.id), write);
    handlers.set(route.id, pagedHandler(route, paging, collection, seed));
  }
  for (const route of generic) {
    if (handlers.has(route.id)) continue;
    const { operation } = route;
    const { status, schema, kind, mediaType } = operation.success!;
    handlers.set(route.id, ({ path }): Reply => {
      if (kind === 'binary' || kind === 'text') {
        const body =
          mediaType === 'image/png' ? PNG : `${operation.operationId} ${JSON.stringify(path)}\n`;
        return { status, body, contentType: mediaType! };
      }
      if (schema === undefined) return { status, body: '', contentType: 'text/plain' };
      const body = specBody(operation, seed, hashString(JSON.stringify(path)));
      // The resource asked for carries the identifier it was asked by.
      if (typeof body === 'object' && body !== null) {
        for (const [name, value] of Object.entries(path)) {
          if (name in body) (body as Record<string, unknown>)[name] = value;
        }
      }
      return json(status, body);
    });
  }
  return handlers;
}
