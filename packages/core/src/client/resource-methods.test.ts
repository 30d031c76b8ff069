import { ApiError, InvalidArgumentError } from '@partner-apis/errors';
import { startFaultServer, type FaultRoutes, type FaultServer } from '@partner-apis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createServiceClient,
  operationMethod,
  type ApiPromise,
  type OperationDescription,
} from '../index.js';

/** A read by two path parameters with a filter, a header and a cookie, as codegen describes it. */
const getThing = {
  operationId: 'getThing',
  resource: 'things',
  verb: 'get',
  method: 'GET',
  path: '/groups/{groupId}/things/{thingId}',
  arguments: [
    { in: 'path', name: 'groupId' },
    { in: 'path', name: 'thingId' },
    { in: 'params', required: false },
  ],
  parameters: [
    { name: 'thingId', in: 'path', required: true, type: 'string', minLength: 1 },
    { name: 'groupId', in: 'path', required: true, type: 'integer' },
    { name: 'fields', in: 'query', required: false, type: 'string' },
    { name: 'X-Marketplace-Id', in: 'header', required: false, type: 'string', pattern: '^M-' },
    { name: 'session', in: 'cookie', required: false, type: 'string' },
    { name: 'X-Trace', in: 'header', required: true, type: 'string', role: 'request-id' },
  ],
  response: { kind: 'json', type: 'object' },
  security: [],
} as const satisfies OperationDescription;

/** A create with a required JSON object body. */
const createThing = {
  operationId: 'createThing',
  resource: 'things',
  verb: 'create',
  method: 'POST',
  path: '/things',
  write: true,
  arguments: [{ in: 'body', required: true }],
  parameters: [],
  body: { required: true, mediaType: 'application/json', kind: 'json', type: 'object' },
  response: { kind: 'json', type: 'object' },
  security: [],
} as const satisfies OperationDescription;

/** An upload of a scan and its title as multipart form data, answered by a PNG. */
const uploadScan = {
  operationId: 'uploadScan',
  resource: 'scans',
  verb: 'upload',
  method: 'POST',
  path: '/scans',
  write: true,
  arguments: [{ in: 'body', required: true }],
  parameters: [],
  body: {
    required: true,
    mediaType: 'multipart/form-data',
    kind: 'multipart',
    type: 'object',
    files: ['scan'],
    partTypes: { meta: 'application/json' },
  },
  response: { kind: 'binary', mediaType: 'image/png' },
  security: [],
} as const satisfies OperationDescription;

type Get = (
  groupId: number,
  thingId: string,
  params?: { fields?: string; 'X-Marketplace-Id'?: string; session?: string },
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
  return createServiceClient<object, typeof service>(
    { baseUrl: server.url, credentials: {} },
    { auth: () => ({ secretHeaderNames: [], authorize: () => undefined }), service },
  );
}

const service = {
  operations: { getThing, createThing, uploadScan },
  securitySchemes: {},
  tracingHeaders: { requestId: 'X-Trace' },
} as const;

describe('operationMethod', () => {
  it('takes path parameters in path order, each one segment, then the query', async () => {
    const client = await clientOf({ '/groups/7/things/a%2Fb%20c': [{ body: { id: 'a/b c' } }] });
    const get = operationMethod<Get>(client, getThing);
    expect(await get(7, 'a/b c', { fields: 'name' })).toEqual({ id: 'a/b c' });
    expect(server?.requests[0]?.url).toBe('/groups/7/things/a%2Fb%20c?fields=name');
  });

  it('sends each parameter of the params object where the spec puts it, under its own name', async () => {
    const client = await clientOf({ '/groups/1/things/x': [{ body: { id: 'x' } }] });
    const get = operationMethod<Get>(client, getThing);
    await get(1, 'x', { fields: 'a', 'X-Marketplace-Id': 'M-7', session: 's 1' });
    const [request] = server?.requests ?? [];
    expect(request?.url).toBe('/groups/1/things/x?fields=a');
    expect(request?.headers['x-marketplace-id']).toBe('M-7');
    expect(request?.headers.cookie).toBe('session=s%201');
    expect(request?.headers['x-trace']).toMatch(/^[0-9a-f-]{36}$/);
    await expect(get(1, 'x', { 'X-Marketplace-Id': 'Q-7' })).rejects.toThrow(
      'things.get: X-Marketplace-Id must match ^M- (got "Q-7")',
    );
    await expect(get(1, 'x', { session: 'a\nb' })).rejects.toThrow(
      'things.get: session cannot be sent in a cookie',
    );
    await expect(get(1, 'x', { 'X-Trace': 'mine' } as never)).rejects.toThrow(
      'things.get: X-Trace is not a parameter of things.get (use fields, X-Marketplace-Id, session)',
    );
    expect(server?.requests).toHaveLength(1);
  });

  it("hands a custom fetch the call's headers as a real Headers", async () => {
    let seen: unknown;
    const client = createServiceClient<object, typeof service>(
      {
        baseUrl: 'https://api.example.com',
        credentials: {},
        fetch: async (_input, init) => {
          seen = init?.headers;
          return Response.json({ id: 't' });
        },
      },
      { auth: () => ({ secretHeaderNames: [], authorize: () => undefined }), service },
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
      'things.get: params must be an object',
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
      response: { kind: 'json', type: 'object', bodyOptional: true },
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
    expect(requestId).toBe(server?.requests[0]?.headers['x-trace']);
  });
});

type Upload = (body: Record<string, unknown>, options?: object) => ApiPromise<Blob>;

describe('bodies and answers by media type', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);

  it('uploads multipart form data, a stream read once so a retry sends it again, and reads a PNG', async () => {
    const client = await clientOf({
      '/scans': [{ status: 503 }, { body: png, headers: { 'content-type': 'image/png' } }],
    });
    const upload = operationMethod<Upload>(client, uploadScan);
    const scan = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('scan-bytes'));
        controller.close();
      },
    });
    const answer = await upload(
      { title: 'Hall B', scan, meta: { pages: 2 } },
      { retry: { retryWrites: true } },
    );
    expect(answer).toBeInstanceOf(Blob);
    expect(answer.type).toBe('image/png');
    expect(new Uint8Array(await answer.arrayBuffer())).toEqual(png);
    const [first, second] = server?.requests ?? [];
    // The same parts each time, under a fresh boundary.
    const boundary = (body = '') => body.split('\r\n')[0] ?? '';
    expect(second?.body.replaceAll(boundary(second.body), '')).toBe(
      first?.body.replaceAll(boundary(first.body), ''),
    );
    const type = String(second?.headers['content-type']);
    expect(type).toMatch(/^multipart\/form-data; boundary=/);
    const parts = await new Response(second?.body, {
      headers: { 'content-type': type },
    }).formData();
    expect(parts.get('title')).toBe('Hall B');
    const file = parts.get('scan') as File;
    expect([file.name, await file.text()]).toEqual(['scan', 'scan-bytes']);
    const meta = parts.get('meta') as File;
    expect([meta.type, await meta.text()]).toEqual(['application/json', '{"pages":2}']);
  });

  it('refuses a file part that is not bytes, before any request', async () => {
    const client = await clientOf({});
    const upload = operationMethod<Upload>(client, uploadScan);
    await expect(upload({ scan: 42 })).rejects.toThrow(
      'scans.upload: body.scan must be a Blob, a File, a Uint8Array or a readable stream of bytes',
    );
    expect(server?.requests).toHaveLength(0);
  });

  it.each([
    [
      'a form',
      'application/x-www-form-urlencoded',
      'form',
      { a: 'x y', tags: ['p', 'q'] },
      'a=x+y&tags=p%7Cq',
    ],
    ['text', 'text/csv', 'text', 'a,b\n1,2', 'a,b\n1,2'],
    ['bytes', 'application/octet-stream', 'binary', new Uint8Array([104, 105]), 'hi'],
  ])(
    'sends %s as %s, and reads a text answer as a string',
    async (_, mediaType, kind, body, sent) => {
      const client = await clientOf({
        '/things': [{ body: 'ok\n', headers: { 'content-type': 'text/plain' } }],
      });
      const operation = {
        ...createThing,
        arguments: [{ in: 'body', required: true }],
        body: { required: true, mediaType, kind: kind as 'form', separators: { tags: '|' } },
        response: { kind: 'text', mediaType: 'text/plain' },
      } as const satisfies OperationDescription;
      const call = operationMethod<(body: unknown) => ApiPromise<string>>(client, operation);
      expect(await call(body)).toBe('ok\n');
      expect(server?.requests[0]?.body).toBe(sent);
      expect(server?.requests[0]?.headers['content-type']).toBe(mediaType);
    },
  );
});
