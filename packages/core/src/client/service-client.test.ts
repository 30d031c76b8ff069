import { basicAuth, clientIdHeaders, type ClientCredentials } from '@partner-apis/auth';
import {
  ApiError,
  AuthenticationError,
  ConfigurationError,
  InvalidArgumentError,
  TimeoutError,
} from '@partner-apis/errors';
import { getEventListeners } from 'node:events';
import { startFaultServer, type FaultServer } from '@partner-apis/testing';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  createClientPipeline,
  createServiceClient,
  type ClientOptions,
  type OperationDescription,
  type ServiceDescription,
  type ServiceWiring,
  type WithoutTracingHeaders,
} from '../index.js';
import { apiPromise, expectData, isHeaderValue, withData } from '../internal.js';
import { withOptionNames } from './service-client.js';

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

const credentials = { clientId: 'client-7f3a', clientSecret: 's3cr3t-value-9c1d' };
/** What the specs say at run time of the tracing headers, as codegen writes it. */
const service = {
  operations: {},
  securitySchemes: {},
  tracingHeaders: { requestId: 'X-Z-Request-Id', conversationId: 'X-Z-Conversation-Id' },
} as const satisfies ServiceDescription;
const ids = {
  auth: (c) => clientIdHeaders(c as unknown as ClientCredentials),
  service,
} satisfies ServiceWiring;
const basic = {
  auth: (c) => basicAuth(c as unknown as ClientCredentials),
  service,
} satisfies ServiceWiring;

function client(
  baseUrl: string,
  options: Partial<ClientOptions> = {},
  wiring: ServiceWiring = ids,
) {
  return createServiceClient<paths, typeof service>(
    { baseUrl, credentials, ...options },
    { ...wiring, service },
  );
}

function configurationError(create: () => unknown): ConfigurationError {
  try {
    create();
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error('expected a ConfigurationError');
}

/** Operations as codegen describes them. */
const getApprovals = {
  operationId: 'getApprovals',
  resource: 'approvals',
  verb: 'get',
  method: 'GET',
  path: '/approvals',
  arguments: [{ in: 'params', required: true }],
  parameters: [
    { name: 'employeeNumber', in: 'query', required: true, type: 'string', minLength: 1 },
    { name: 'X-Z-Request-Id', in: 'header', required: true, type: 'string', role: 'request-id' },
  ],
  response: { kind: 'json', type: 'object' },
  security: [],
} as const satisfies OperationDescription;
const createQuote = {
  operationId: 'createQuote',
  resource: 'quotes',
  verb: 'create',
  method: 'POST',
  path: '/quotes',
  write: true,
  arguments: [{ in: 'body', required: true }],
  body: { required: true, mediaType: 'application/json', kind: 'json', type: 'object' },
  parameters: [
    {
      name: 'X-Z-Conversation-Id',
      in: 'header',
      required: true,
      type: 'string',
      role: 'conversation-id',
    },
  ],
  response: { kind: 'json', type: 'object' },
  security: [],
} as const satisfies OperationDescription;
const getQuote = {
  operationId: 'getQuote',
  resource: 'quotes',
  verb: 'get',
  method: 'GET',
  path: '/quotes/{quoteId}',
  arguments: [{ in: 'path', name: 'quoteId' }],
  parameters: [
    { name: 'quoteId', in: 'path', required: true, type: 'string', minLength: 1 },
    {
      name: 'X-Z-Conversation-Id',
      in: 'header',
      required: true,
      type: 'string',
      role: 'conversation-id',
    },
  ],
  response: { kind: 'json', type: 'object' },
  security: [],
} as const satisfies OperationDescription;

describe('createServiceClient', () => {
  it('calls the spec through the pipeline without passing tracing headers', async () => {
    server = await startFaultServer({
      '/v1/approvals': [{ body: { n: 7 } }],
      '/v1/quotes': [{ status: 201, body: { id: 'q-1' } }],
    });
    const { raw } = client(`${server.url}/v1`, { userAgent: 'partner-apis-test' });
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
    expect(get?.headers['client_secret']).toBe(credentials.clientSecret);
    expect(get?.headers['user-agent']).toBe('partner-apis-test');
    expect(post?.headers['x-tenant']).toBe('acme');
    expect(post?.body).toBe('{"productId":"p"}');
  });

  it('middleware can change the request and read it as a real Request', async () => {
    server = await startFaultServer([{ status: 201, body: { id: 'q-1' } }]);
    const { raw } = client(server.url);
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

  it('throws the typed error from inside the call, so raw never returns an error branch', async () => {
    server = await startFaultServer([
      { status: 401, body: { code: 'authentication_error', message: 'No.', correlationId: 'c' } },
    ]);
    const error = await client(server.url)
      .raw.GET('/approvals', { params: { query: { employeeNumber: '42' } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
  });

  it('expectData refuses a 2xx without the promised body', async () => {
    server = await startFaultServer([{ status: 204 }]);
    const result = await client(server.url).raw.GET('/approvals', {
      params: { query: { employeeNumber: '42' } },
    });
    expect(() => expectData(result, 'GET /approvals')).toThrow(ApiError);
    expect(() => expectData(result, 'GET /approvals')).toThrow(
      'GET /approvals answered 204 without a body',
    );
  });

  it.each([
    [undefined, 'options', 'must be an object'],
    [{ baseUrl: 'https://a.example' }, 'credentials', 'must be an object'],
    [
      { baseUrl: 'https://a.example', credentials: 'id:secret' },
      'credentials',
      'must be an object',
    ],
    [{ baseUrl: 'http://a.example', credentials }, 'baseUrl', 'must use https'],
    [
      { baseUrl: 'https://a.example', credentials: { clientId: 'id' } },
      'credentials.clientSecret',
      '',
    ],
    [
      { baseUrl: 'https://a.example', credentials: { clientId: 'a:b', clientSecret: 's' } },
      'credentials.clientId',
      'must not contain ":"',
    ],
    [
      { baseUrl: 'https://a.example', credentials: { ...credentials, secretCreatedAt: 'soon' } },
      'credentials.secretCreatedAt',
      'must be a valid date',
    ],
    [{ baseUrl: 'https://a.example', credentials, userAgent: 'a\r\nb' }, 'userAgent', ''],
    [{ baseUrl: 'https://a.example', credentials, userAgent: 'app ☂' }, 'userAgent', ''],
    [{ baseUrl: 'https://a.example', credentials, assumptions: 'loud' }, 'assumptions', ''],
    [{ baseUrl: 'https://a.example', credentials, retry: { attempts: 0 } }, 'retry.attempts', ''],
  ])('refuses %j naming %s', (options, option, problem) => {
    const error = configurationError(() =>
      createServiceClient<paths, typeof service>(options as never, basic),
    );
    expect(error.option).toBe(option);
    expect(error.message).toContain(`${option}: ${problem}`);
    expect(error.message).not.toContain('s3cr3t-value-9c1d');
  });

  it("names the pipeline's options as the service's users know them", () => {
    const error = configurationError(() =>
      createServiceClient<paths, typeof service>(
        { baseUrl: 'https://a.example', credentials },
        { ...ids, rateLimit: { requestsPerSecond: -1 }, optionNames: { rateLimit: 'tier' } },
      ),
    );
    expect(error.option).toBe('tier.requestsPerSecond');
  });
});

describe('ServiceClient.call', () => {
  it("sends the conversation id only where the operation declares it, the call's own first", async () => {
    server = await startFaultServer({
      '/approvals': [{ body: { n: 1 } }],
      '/quotes': [{ status: 201, body: { id: 'q-1' } }],
    });
    const c = client(server.url);
    await c.call(getApprovals, { params: { employeeNumber: '42' } }, undefined, 'approvals.list');
    await c.call(createQuote, { body: { productId: 'p' } }, undefined, 'quotes.create');
    await c.call(createQuote, { body: {} }, { conversationId: 'flow-9' }, 'quotes.create');
    const [get, post, own] = server.requests;
    expect(get?.headers['x-z-conversation-id']).toBeUndefined();
    expect(post?.headers['x-z-conversation-id']).toBe(c.conversationId);
    expect(own?.headers['x-z-conversation-id']).toBe('flow-9');
  });

  it('refuses a conversation id for an operation that declares none, before any request', async () => {
    server = await startFaultServer([{ body: { n: 1 } }]);
    const c = client(server.url);
    const call = c.call(
      getApprovals,
      { params: { employeeNumber: '42' } },
      { conversationId: 'flow-9' },
      'approvals.list',
    );
    await expect(call).rejects.toThrow(
      new InvalidArgumentError(
        'options.conversationId',
        'is not sent: the spec declares no conversation id header for this operation',
        'approvals.list',
      ),
    );
    expect(server.requests).toHaveLength(0);
  });

  it("refuses a path parameter that would leave the operation's path", async () => {
    server = await startFaultServer([{ body: {} }]);
    const c = client(server.url);
    for (const quoteId of ['..', '.', '']) {
      await expect(
        c.call(getQuote, { path: { quoteId } }, undefined, 'quotes.get'),
      ).rejects.toThrow(InvalidArgumentError);
    }
    await c.call(getQuote, { path: { quoteId: 'a/../b' } }, undefined, 'quotes.get');
    expect(server.requests.map((r) => r.url)).toEqual(['/quotes/a%2F..%2Fb']);
  });

  it('refuses a body JSON cannot hold, naming the call, before any request', async () => {
    server = await startFaultServer([{ body: {} }]);
    const c = client(server.url);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(
      c.call(createQuote, { body: circular }, undefined, 'quotes.create'),
    ).rejects.toThrow(
      new InvalidArgumentError('body', 'cannot be sent as JSON: it is circular', 'quotes.create'),
    );
    await expect(
      c.call(createQuote, { body: { amount: 10n } }, undefined, 'quotes.create'),
    ).rejects.toThrow('quotes.create: body cannot be sent as JSON');
    await expect(
      c.raw.POST('/quotes', { params: { header: { 'X-Tenant': 't' } }, body: circular as never }),
    ).rejects.toThrow(InvalidArgumentError);
    expect(server.requests).toHaveLength(0);
  });

  it('a 2xx body of the wrong JSON kind is an ApiError; after a write it says so', async () => {
    server = await startFaultServer({
      '/approvals': [
        { body: [1] },
        { body: 'null', headers: { 'content-type': 'application/json' } },
      ],
      '/quotes': [{ status: 201, body: '42', headers: { 'content-type': 'application/json' } }],
    });
    const c = client(server.url);
    const list = () =>
      c.call(getApprovals, { params: { employeeNumber: '1' } }, undefined, 'approvals.list');
    await expect(list()).rejects.toThrow(
      'approvals.list answered 200 with an array where the spec promises an object',
    );
    await expect(list()).rejects.toMatchObject({ code: 'unexpected_response', status: 200 });
    const error = await c
      .call(createQuote, { body: {} }, undefined, 'quotes.create')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toContain('a number where the spec promises an object');
    expect((error as Error).message).toContain('may have taken effect');
  });
});

describe('per-call options and withResponse()', () => {
  it('withResponse() gives the data with the request id, the correlation id and the attempts', async () => {
    server = await startFaultServer({
      '/approvals': [
        { status: 503, headers: { 'retry-after': '0' } },
        { body: { n: 1 }, headers: { 'x-correlation-id': 'corr-42' } },
      ],
    });
    const c = client(server.url);
    const result = await apiPromise(
      c
        .call(getApprovals, { params: { employeeNumber: '42' } }, undefined, 'approvals.list')
        .then((answer) => withData(answer, answer.data as { n: number })),
    ).withResponse();
    expect(result.data).toEqual({ n: 1 });
    expect(result.attempts).toBe(2);
    expect(result.correlationId).toBe('corr-42');
    expect(result.requestId).toBe(server.requests[1]?.headers['x-z-request-id']);
    expect(result.response.status).toBe(200);
    expect(result.headers.get('x-correlation-id')).toBe('corr-42');
    expect(result.headers).toBeInstanceOf(Headers);
    expect(result.response.headers).toBeInstanceOf(Headers);
  });

  it('an ApiPromise resolves to the data, and a failure reaches both ways of asking', async () => {
    server = await startFaultServer([{ body: { n: 2 } }, { status: 404, body: 'no' }]);
    const c = client(server.url);
    const ask = () =>
      apiPromise(
        c
          .call(getApprovals, { params: { employeeNumber: '1' } }, undefined, 'approvals.list')
          .then((answer) => ({ ...answer, data: answer.data })),
      );
    expect(await ask()).toEqual({ n: 2 });
    await expect(ask().withResponse()).rejects.toBeInstanceOf(ApiError);
  });

  it('a call may have more attempts or a shorter timeout than its client', async () => {
    server = await startFaultServer({
      '/approvals': [
        { status: 503, headers: { 'retry-after': '0' } },
        { status: 503, headers: { 'retry-after': '0' } },
        { body: { n: 3 } },
      ],
      '/quotes': [{ delayMs: 2_000, body: {} }],
    });
    const c = client(server.url, { retry: { attempts: 1 } });
    const list = (options?: object) =>
      c.call(getApprovals, { params: { employeeNumber: '1' } }, options, 'approvals.list');
    await expect(list()).rejects.toBeInstanceOf(ApiError);
    expect((await list({ retry: { attempts: 3 } })).data).toEqual({ n: 3 });
    const slow = c.call(createQuote, { body: {} }, { timeout: { attemptMs: 50 } }, 'quotes.create');
    await expect(slow).rejects.toBeInstanceOf(TimeoutError);
  });

  it('calls sharing one signal add one listener to it, and its abort ends them all', async () => {
    const calls = 12;
    server = await startFaultServer({
      '/approvals': Array.from({ length: calls + 1 }, () => ({ delayMs: 5_000, body: { n: 1 } })),
    });
    const c = client(server.url);
    const controller = new AbortController();
    const list = () =>
      c.call(
        getApprovals,
        { params: { employeeNumber: '1' } },
        { signal: controller.signal },
        'approvals.list',
      );
    const pending = Array.from({ length: calls }, () => list().catch((e: unknown) => e));
    await server.waitForRequests(calls);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort(new Error('user cancelled'));
    for (const outcome of await Promise.all(pending)) {
      expect(outcome).toMatchObject({ message: 'user cancelled' });
    }
    await expect.poll(() => server?.requests.every((r) => r.aborted)).toBe(true);
  });

  it.each([
    [{ timeout: { attemptMs: 0 } }, 'options.timeout.attemptMs'],
    [{ timeout: { totalMs: 2 ** 31 } }, 'options.timeout.totalMs'],
    [{ retry: { attempts: 11 } }, 'options.retry.attempts'],
    [{ retry: { retryWrites: 'yes' } }, 'options.retry.retryWrites'],
    [{ retry: 3 }, 'options.retry'],
  ])('refuses the call options %j, naming %s', async (options, argument) => {
    server = await startFaultServer([{ body: {} }]);
    const error = await client(server.url)
      .call(getApprovals, { params: { employeeNumber: '1' } }, options as never, 'approvals.list')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({ argument });
    expect(server.requests).toHaveLength(0);
  });
});

describe('withOptionNames', () => {
  it('lets the longest matching name win and leaves other errors alone', () => {
    const names = { auth: 'credentials', 'auth.tokenUrl': 'tokenUrl' };
    const thrown = (option: string) =>
      configurationError(() =>
        withOptionNames(names, () => {
          throw new ConfigurationError(option, 'is wrong');
        }),
      );
    expect(thrown('auth.tokenUrl').message).toBe('tokenUrl: is wrong');
    expect(thrown('auth.clientId').message).toBe('credentials.clientId: is wrong');
    expect(thrown('authority').message).toBe('authority: is wrong');
    const other = new RangeError('not a configuration error');
    expect(() =>
      withOptionNames(names, () => {
        throw other;
      }),
    ).toThrow(other);
    expect(
      withOptionNames(names, () => createClientPipeline({ baseUrl: 'https://a.example' })).baseUrl,
    ).toBe('https://a.example');
  });
});

describe('isHeaderValue', () => {
  it('accepts Latin-1 text and refuses blanks, line breaks, NUL, other characters and non-strings', () => {
    expect(isHeaderValue('flow-42')).toBe(true);
    expect(isHeaderValue('Zürich')).toBe(true);
    for (const bad of ['', '  ', 'a\nb', 'a\r\nb', 'a\0b', 'flow ☂', 42, undefined]) {
      expect(isHeaderValue(bad)).toBe(false);
    }
  });
});

describe('WithoutTracingHeaders', () => {
  type Relaxed = WithoutTracingHeaders<paths, 'X-Z-Request-Id' | 'X-Z-Conversation-Id'>;
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
    const { raw } = client('https://api.example.com');
    const call = () => raw.GET('/approvals', { params: { query: { employeeNumber: '1' } } });
    expectTypeOf(call).returns.resolves.toHaveProperty('data');
    // @ts-expect-error employeeNumber is still required
    const missing = () => raw.GET('/approvals', { params: { query: {} } });
    // @ts-expect-error X-Tenant is still required
    const noTenant = () => raw.POST('/quotes', { body: { productId: 'p' } });
    expect([typeof missing, typeof noTenant]).toEqual(['function', 'function']);
  });
});
