import type { InFlight } from '../pipeline/call.js';
import * as otelApi from '@opentelemetry/api';
import { SpanKind, SpanStatusCode, propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { clientIdHeaders } from '@partner-apis/auth';
import { ConfigurationError, ConnectionError, ValidationError } from '@partner-apis/errors';
import {
  createVirtualTime,
  refusedUrl,
  startFaultServer,
  type FaultServer,
} from '@partner-apis/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClientPipeline, createServiceClient, type PipelineOptions } from '../index.js';
import { createClientTracing } from './tracing.js';
import { withTestHooks } from '../testing.js';

const SECRET = 'client-secret-7731';
const QUERY_SECRET = 'query-token-5512';

let server: FaultServer | undefined;
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});

beforeEach(() => exporter.reset());
afterEach(async () => {
  propagation.disable();
  await server?.close();
  server = undefined;
});

function tracedPipeline(baseUrl: string, options: Partial<PipelineOptions> = {}) {
  const time = createVirtualTime();
  return createClientPipeline({
    baseUrl,
    auth: clientIdHeaders({ clientId: 'id', clientSecret: SECRET }),
    clock: time.now,
    sleep: time.sleep,
    tracing: { tracerProvider },
    tracingHeaders: { requestId: 'X-Z-Request-Id', conversationId: 'X-Z-Conversation-Id' },
    ...options,
  });
}

function spans() {
  const all = exporter.getFinishedSpans();
  const calls = all.filter((span) => span.kind === SpanKind.INTERNAL);
  const attempts = all.filter((span) => span.kind === SpanKind.CLIENT);
  return { all, calls, attempts };
}

function parentId(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

describe('OpenTelemetry tracing', () => {
  it('gives a call with a retry one call span and two attempt spans', async () => {
    server = await startFaultServer([
      { status: 503, headers: { 'retry-after': '0' } },
      { body: { ok: true } },
    ]);
    const pipeline = tracedPipeline(server.url, { conversationId: 'per-client' });
    const response = await pipeline.fetch(new Request(`${server.url}/items?token=${QUERY_SECRET}`));
    expect(response.status).toBe(200);

    const { calls, attempts } = spans();
    expect(calls).toHaveLength(1);
    expect(attempts).toHaveLength(2);
    const [call] = calls;
    const [first, second] = attempts;
    const port = Number(new URL(server.url).port);
    expect(call?.name).toBe('GET 127.0.0.1');
    expect(call?.status.code).toBe(SpanStatusCode.UNSET);
    expect(call?.attributes).toEqual({
      'http.request.method': 'GET',
      'server.address': '127.0.0.1',
      'server.port': port,
      'url.full': `${server.url}/items?token=[redacted]`,
      'http.response.status_code': 200,
      'http.request.resend_count': 1,
      'http.request.header.x-z-conversation-id': [pipeline.conversationId],
    });
    for (const attempt of attempts) {
      expect(attempt.name).toBe('GET');
      expect(parentId(attempt)).toBe(call?.spanContext().spanId);
      expect(attempt.spanContext().traceId).toBe(call?.spanContext().traceId);
    }
    const sentIds = server.requests.map((request) => request.headers['x-z-request-id']);
    expect(first?.attributes).toEqual({
      'http.request.method': 'GET',
      'server.address': '127.0.0.1',
      'server.port': port,
      'url.full': `${server.url}/items?token=[redacted]`,
      'http.response.status_code': 503,
      'error.type': '503',
      'http.request.header.x-z-request-id': [sentIds[0]],
      'http.request.header.x-z-conversation-id': [pipeline.conversationId],
    });
    expect(first?.status.code).toBe(SpanStatusCode.ERROR);
    expect(second?.attributes).toMatchObject({
      'http.response.status_code': 200,
      'http.request.resend_count': 1,
      'http.request.header.x-z-request-id': [sentIds[1]],
    });
    expect(second?.attributes['error.type']).toBeUndefined();
    expect(second?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('traces the calls of a service client built on openapi-fetch', async () => {
    server = await startFaultServer([{ status: 502 }, { body: { items: [] } }]);
    const time = createVirtualTime();
    const { raw } = createServiceClient<{
      '/items': { get: { responses: { 200: { content: { 'application/json': object } } } } };
    }>(
      withTestHooks(
        { baseUrl: server.url, credentials: {}, tracing: { tracerProvider } },
        { clock: time.now, sleep: time.sleep },
      ),
      { auth: () => ({ secretHeaderNames: [], authorize: () => undefined }) },
    );
    await raw.GET('/items');

    const { calls, attempts } = spans();
    expect(calls).toHaveLength(1);
    expect(attempts.map((span) => span.attributes['http.response.status_code'])).toEqual([
      502, 200,
    ]);
    for (const attempt of attempts) expect(parentId(attempt)).toBe(calls[0]?.spanContext().spanId);
  });

  it('records error.type and an error status on a failed call', async () => {
    server = await startFaultServer([
      { status: 400, body: { errors: [{ code: 'invalid', message: 'bad employee number' }] } },
    ]);
    const pipeline = tracedPipeline(server.url);
    const error = await pipeline.fetch(new Request(`${server.url}/items`)).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);

    const { calls, attempts } = spans();
    expect(calls[0]?.attributes).toMatchObject({
      'error.type': '400',
      'http.response.status_code': 400,
    });
    expect(calls[0]?.status).toEqual({ code: SpanStatusCode.ERROR, message: error.message });
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.attributes['error.type']).toBe('400');
  });

  it('names a connection failure by its error class', async () => {
    const url = await refusedUrl();
    const pipeline = tracedPipeline(url, { retry: { attempts: 2 } });
    const error = await pipeline.fetch(new Request(`${url}/items`)).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);

    const { calls, attempts } = spans();
    expect(calls[0]?.attributes['error.type']).toBe('ConnectionError');
    expect(calls[0]?.attributes['http.request.resend_count']).toBe(1);
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) {
      expect(attempt.status.code).toBe(SpanStatusCode.ERROR);
      // The sender's own error class (`TypeError` of fetch, `Error` of node:http), no message.
      expect(attempt.attributes['error.type']).toMatch(/^[A-Za-z]*Error$/);
    }
  });

  it('puts no credential or query value in any attribute', async () => {
    server = await startFaultServer([{ body: { ok: true } }]);
    // A base URL with user info is refused when the client is made, so only the request's own
    // URL and headers can carry a secret here.
    const pipeline = tracedPipeline(server.url);
    await pipeline.fetch(
      new Request(`${server.url}/items?token=${QUERY_SECRET}`, {
        headers: { authorization: `Bearer ${QUERY_SECRET}` },
      }),
    );
    const { all } = spans();
    expect(all).toHaveLength(2);
    const shown = JSON.stringify(all.map((span) => [span.name, span.attributes, span.status]));
    expect(shown).not.toContain(SECRET);
    expect(shown).not.toContain(QUERY_SECRET);
  });

  it('sends traceparent only when propagate is true', async () => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    server = await startFaultServer([{ body: { ok: true } }, { body: { ok: true } }]);
    await tracedPipeline(server.url).fetch(new Request(`${server.url}/items`));
    expect(server.requests[0]?.headers.traceparent).toBeUndefined();

    await tracedPipeline(server.url, { tracing: { tracerProvider, propagate: true } }).fetch(
      new Request(`${server.url}/items`),
    );
    const attempt = spans().attempts.at(-1)?.spanContext();
    expect(server.requests[1]?.headers.traceparent).toBe(
      `00-${attempt?.traceId}-${attempt?.spanId}-01`,
    );
  });

  it('refuses a tracing option it cannot use, naming it', () => {
    const bad = [
      [{ tracerProvider: {} }, 'tracing.tracerProvider: must be an OpenTelemetry TracerProvider'],
      [{ propagate: 'yes' }, 'tracing.propagate: must be true or false'],
      ['on', 'tracing: must be true, false or { tracerProvider?, propagate?, api? }'],
    ] as const;
    for (const [tracing, message] of bad) {
      const create = () =>
        createClientPipeline({
          baseUrl: 'https://api.example.com',
          tracing: tracing as unknown as PipelineOptions['tracing'],
        });
      expect(create).toThrow(ConfigurationError);
      expect(create).toThrow(message);
    }
  });

  it('uses the @opentelemetry/api module given as tracing.api, importing none', async () => {
    // A copy of the module that counts what is asked of it: only the given one is used.
    let asked = 0;
    const api = {
      ...otelApi,
      context: {
        active: () => {
          asked += 1;
          return otelApi.context.active();
        },
        with: otelApi.context.with.bind(otelApi.context),
      },
    };
    const tracing = createClientTracing({ tracerProvider, api }, {});
    const headers = new Headers();
    const call = { method: 'GET', url: 'https://api.example.com/items', headers } as InFlight;
    await tracing?.step(call, async () => ({
      answer: { status: 200, statusText: '', headers, bytes: new Uint8Array() },
    }));
    expect(asked).toBe(1);
    expect(spans().calls.map((span) => span.name)).toEqual(['GET api.example.com']);
  });

  it.each([{}, { trace: {}, context: {}, propagation: {} }, otelApi.trace])(
    'refuses a tracing.api that is not the @opentelemetry/api module',
    (api) => {
      const create = () => createClientTracing({ api: api as never }, {});
      expect(create).toThrow(ConfigurationError);
      expect(create).toThrow('tracing.api: must be the @opentelemetry/api module');
    },
  );
});
