import { ApiError, InvalidArgumentError } from '@partner-apis/errors';
import { startFaultServer, type FaultRoutes, type FaultServer } from '@partner-apis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createServiceClient,
  operationMethod,
  type ApiPromise,
  type OperationDescription,
} from '../index.js';

/** A read by two path parameters with a filter, as codegen describes it. */
const getThing = {
  operationId: 'getThing',
  resource: 'things',
  verb: 'get',
  method: 'GET',
  path: '/groups/{groupId}/things/{thingId}',
  parameters: [
    { name: 'thingId', in: 'path', required: true, type: 'string', minLength: 1 },
    { name: 'groupId', in: 'path', required: true, type: 'integer' },
    { name: 'fields', in: 'query', required: false, type: 'string' },
  ],
  response: { type: 'object' },
} as const satisfies OperationDescription;

/** A create with a required JSON object body. */
const createThing = {
  operationId: 'createThing',
  resource: 'things',
  verb: 'create',
  method: 'POST',
  path: '/things',
  parameters: [],
  body: { required: true, mediaType: 'application/json', type: 'object' },
  response: { type: 'object' },
} as const satisfies OperationDescription;

type Get = (
  groupId: number,
  thingId: string,
  query?: { fields?: string },
  options?: { signal?: AbortSignal },
) => ApiPromise<Record<string, unknown>>;
type Create = (body: object) => ApiPromise<Record<string, unknown>>;

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientOf(routes: FaultRoutes) {
  server = await startFaultServer(routes);
  return createServiceClient<object>(
    { baseUrl: server.url, credentials: {} },
    { auth: () => ({ secretHeaderNames: [], authorize: () => undefined }) },
  );
}

describe('operationMethod', () => {
  it('takes path parameters in path order, each one segment, then the query', async () => {
    const client = await clientOf({ '/groups/7/things/a%2Fb%20c': [{ body: { id: 'a/b c' } }] });
    const get = operationMethod<Get>(client, getThing);
    expect(await get(7, 'a/b c', { fields: 'name' })).toEqual({ id: 'a/b c' });
    expect(server?.requests[0]?.url).toBe('/groups/7/things/a%2Fb%20c?fields=name');
  });

  it("hands a custom fetch the call's headers as a real Headers", async () => {
    let seen: unknown;
    const client = createServiceClient<object>(
      {
        baseUrl: 'https://api.example.com',
        credentials: {},
        fetch: async (_input, init) => {
          seen = init?.headers;
          return Response.json({ id: 't' });
        },
      },
      { auth: () => ({ secretHeaderNames: [], authorize: () => undefined }) },
    );
    const create = operationMethod<Create>(client, createThing);
    expect(await create({ name: 't' })).toEqual({ id: 't' });
    expect(seen).toBeInstanceOf(Headers);
    expect((seen as Headers).get('content-type')).toBe('application/json');
  });

  it('refuses a bad path parameter or query before any request, naming the method', async () => {
    const client = await clientOf({});
    const get = operationMethod<Get>(client, getThing);
    await expect(get(7, '')).rejects.toThrow('things.get: thingId must be a non-empty string');
    await expect(get(7, '..')).rejects.toThrow('things.get: thingId cannot be ".."');
    await expect(get(7, 'a', 'name' as never)).rejects.toThrow(
      'things.get: query must be an object',
    );
    await expect(get(7, 'a', { colour: 'red' } as never)).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(server?.requests).toHaveLength(0);
  });

  it('sends the body as JSON, and refuses a missing or non-object one', async () => {
    const client = await clientOf({ '/things': [{ status: 201, body: { id: 't-1' } }] });
    const create = operationMethod<Create>(client, createThing);
    await expect(create(undefined as never)).rejects.toThrow('things.create: body is required');
    await expect(create([] as never)).rejects.toThrow('things.create: body must be an object');
    expect(await create({ name: 'x' })).toEqual({ id: 't-1' });
    expect(server?.requests.map((r) => r.body)).toEqual(['{"name":"x"}']);
    expect(server?.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('is an ApiError for a 2xx without the body the spec promises, or {} where it is optional', async () => {
    const client = await clientOf({ '/things': [{ status: 204 }, { status: 204 }] });
    const create = operationMethod<Create>(client, createThing);
    const error = await create({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'unexpected_response', status: 204 });
    const optional = {
      ...createThing,
      response: { type: 'object', bodyOptional: true },
    } as const satisfies OperationDescription;
    expect(await operationMethod<Create>(client, optional)({})).toEqual({});
  });

  it('gives the response and its metadata on request, from the same call', async () => {
    const client = await clientOf({
      '/groups/1/things/x': [{ body: { id: 'x' }, headers: { 'x-correlation-id': 'corr-9' } }],
    });
    const { data, response, attempts, requestId } = await operationMethod<Get>(client, getThing)(
      1,
      'x',
    ).withResponse();
    expect(data).toEqual({ id: 'x' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 'x' });
    expect(attempts).toBe(1);
    expect(requestId).toBe(server?.requests[0]?.headers['x-z-request-id']);
  });
});
