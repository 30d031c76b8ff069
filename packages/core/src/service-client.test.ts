import { clientIdHeaders } from '@partner-apis/auth';
import { ApiError, AuthenticationError } from '@partner-apis/errors';
import { startFaultServer, type FaultServer } from '@partner-apis/testing';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { createServiceClient, expectData, type WithoutTracingHeaders } from './index.js';

/** The shape openapi-typescript generates, with the tracing headers marked required. */
interface paths {
  '/approvals': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: {
        query: { employeeNumber: string };
        header: { 'X-Z-Request-Id': string };
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        200: { headers: Record<string, unknown>; content: { 'application/json': { n: number } } };
        401: {
          headers: Record<string, unknown>;
          content: { 'application/json': { code: string } };
        };
      };
    };
    put?: never;
    post?: never;
  };
  '/quotes': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    post: {
      parameters: {
        query?: never;
        header: { 'X-Z-Request-Id': string; 'X-Z-Conversation-Id': string; 'X-Tenant': string };
        path?: never;
        cookie?: never;
      };
      requestBody: { content: { 'application/json': { productId: string } } };
      responses: {
        201: { headers: Record<string, unknown>; content: { 'application/json': { id: string } } };
      };
    };
  };
}

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createServiceClient', () => {
  it('calls the spec through the pipeline without passing tracing headers', async () => {
    server = await startFaultServer({
      '/v1/approvals': [{ body: { n: 7 } }],
      '/v1/quotes': [{ status: 201, body: { id: 'q-1' } }],
    });
    const { raw, conversationId } = createServiceClient<paths>({
      baseUrl: `${server.url}/v1`,
      auth: clientIdHeaders({ clientId: 'id', clientSecret: 'secret' }),
      conversationId: 'per-client',
      headers: { 'user-agent': 'partner-apis-test' },
    });
    const approvals = await raw.GET('/approvals', { params: { query: { employeeNumber: '42' } } });
    expect(expectData(approvals, 'GET /approvals')).toEqual({ n: 7 });
    const quote = await raw.POST('/quotes', {
      params: { header: { 'X-Tenant': 'acme' } },
      body: { productId: 'p' },
    });
    expect(quote.data).toEqual({ id: 'q-1' });
    const [get, post] = server.requests;
    expect(get?.url).toBe('/v1/approvals?employeeNumber=42');
    expect(get?.headers['x-z-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(get?.headers['x-z-conversation-id']).toBe(conversationId);
    expect(get?.headers['client_secret']).toBe('secret');
    expect(get?.headers['user-agent']).toBe('partner-apis-test');
    expect(post?.headers['x-tenant']).toBe('acme');
    expect(post?.body).toBe('{"productId":"p"}');
  });

  it('middleware can change the request and read it as a real Request', async () => {
    server = await startFaultServer([{ status: 201, body: { id: 'q-1' } }]);
    const { raw } = createServiceClient<paths>({ baseUrl: server.url });
    const seen: unknown[] = [];
    raw.use({
      async onRequest({ request }) {
        request.headers.set('X-Tenant', 'from-middleware');
        const copy = request.clone();
        seen.push(copy instanceof Request, await copy.json());
      },
    });
    await raw.POST('/quotes', {
      params: { header: { 'X-Tenant': 'acme' } },
      body: { productId: 'p' },
    });
    expect(seen).toEqual([true, { productId: 'p' }]);
    expect(server.requests[0]?.headers['x-tenant']).toBe('from-middleware');
    expect(server.requests[0]?.body).toBe('{"productId":"p"}');
  });

  it('resends a streamed body on a retry', async () => {
    server = await startFaultServer([{ status: 503, headers: { 'retry-after': '0' } }, {}]);
    const { fetch } = createServiceClient<paths>({
      baseUrl: server.url,
      retry: { retryWrites: true },
    });
    const stream = new Blob(['{"streamed":true}']).stream();
    const request = new Request(`${server.url}/quotes`, {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect((await fetch(request)).status).toBe(200);
    expect(server.requests.map((r) => r.body)).toEqual(['{"streamed":true}', '{"streamed":true}']);
  });

  it('throws the typed error from inside the call, so raw never returns an error branch', async () => {
    server = await startFaultServer([
      { status: 401, body: { code: 'authentication_error', message: 'No.', correlationId: 'c' } },
    ]);
    const { raw } = createServiceClient<paths>({ baseUrl: server.url });
    const error = await raw
      .GET('/approvals', { params: { query: { employeeNumber: '42' } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
  });

  it('expectData refuses a 2xx without the promised body', async () => {
    server = await startFaultServer([{ status: 204 }]);
    const { raw } = createServiceClient<paths>({ baseUrl: server.url });
    const result = await raw.GET('/approvals', { params: { query: { employeeNumber: '42' } } });
    expect(() => expectData(result, 'GET /approvals')).toThrow(ApiError);
    expect(() => expectData(result, 'GET /approvals')).toThrow(
      'GET /approvals answered 204 without a body',
    );
  });
});

describe('WithoutTracingHeaders', () => {
  type Relaxed = WithoutTracingHeaders<paths>;
  type GetParams = Relaxed['/approvals']['get']['parameters'];
  type PostParams = Relaxed['/quotes']['post']['parameters'];

  it('makes the tracing headers optional and keeps every other parameter as it was', () => {
    expectTypeOf<GetParams['query']>().toEqualTypeOf<{ employeeNumber: string }>();
    expectTypeOf<GetParams>().toHaveProperty('header');
    expectTypeOf<NonNullable<GetParams['header']>>().toEqualTypeOf<{
      'X-Z-Request-Id'?: string;
    }>();
    expectTypeOf<PostParams['header']>().toEqualTypeOf<{
      'X-Tenant': string;
      'X-Z-Request-Id'?: string;
      'X-Z-Conversation-Id'?: string;
    }>();
    expectTypeOf<Relaxed['/quotes']['post']['requestBody']>().toEqualTypeOf<
      paths['/quotes']['post']['requestBody']
    >();
  });

  it('makes the header object optional when only tracing headers were required', () => {
    type HeaderOptional = undefined extends GetParams['header'] ? true : false;
    expectTypeOf<HeaderOptional>().toEqualTypeOf<true>();
    type StillRequired = undefined extends PostParams['header'] ? true : false;
    expectTypeOf<StillRequired>().toEqualTypeOf<false>();
  });

  it('lets raw calls omit the headers but not the other required parameters', () => {
    const { raw } = createServiceClient<paths>({ baseUrl: 'https://api.example.com' });
    const call = () => raw.GET('/approvals', { params: { query: { employeeNumber: '1' } } });
    expectTypeOf(call).returns.resolves.toHaveProperty('data');
    // @ts-expect-error employeeNumber is still required
    const missing = () => raw.GET('/approvals', { params: { query: {} } });
    // @ts-expect-error X-Tenant is still required
    const noTenant = () => raw.POST('/quotes', { body: { productId: 'p' } });
    expect([typeof missing, typeof noTenant]).toEqual(['function', 'function']);
  });
});
