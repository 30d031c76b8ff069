import type { Exchange, Send } from '../transport/exchange.js';
import type { InFlight, Next, Step } from '../pipeline/call.js';
import type { TracingHeaders } from '../pipeline/request-id.js';
import type * as OTelApi from '@opentelemetry/api';
import type {
  Context,
  Span,
  SpanOptions,
  TextMapSetter,
  Tracer,
  TracerProvider,
} from '@opentelemetry/api';
import { ConfigurationError, PartnerApisError, redactUrl } from '@partner-apis/errors';

/**
 * What `tracing` needs of an OpenTelemetry `TracerProvider`; any provider of
 * `@opentelemetry/sdk-trace-base` or `@opentelemetry/sdk-node` fits. Typed here, so that the
 * types of this package do not depend on `@opentelemetry/api` being installed.
 */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): unknown;
}

/** OpenTelemetry spans of a client's calls; `@opentelemetry/api` must be installed. */
export interface TracingOptions {
  /**
   * The `@opentelemetry/api` module itself (`import * as api from '@opentelemetry/api'`). By
   * default it is imported on the first traced call, at run time and out of a bundler's sight;
   * a browser bundle, which cannot import a package at run time, passes it here.
   */
  api?:
    { readonly trace: object; readonly context: object; readonly propagation: object } | undefined;
  /** Where the spans go; the global provider (`trace.getTracerProvider()`) by default. */
  tracerProvider?: TracerProviderLike | undefined;
  /**
   * Send the trace context with each attempt, in the headers of the global propagator (W3C
   * `traceparent` and `tracestate` with the SDK's defaults). Off by default: the upstreams do
   * not document accepting it.
   */
  propagate?: boolean | undefined;
}

/** Numeric values of the API's enums, so that nothing is imported before tracing is used. */
const SPAN_KIND_INTERNAL = 0;
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;

let loading: Promise<typeof OTelApi> | undefined;

/**
 * The optional peer's name, built at run time and imported with the comments that make webpack
 * and Vite leave the `import()` alone: bundlers that resolve every `import()` they see (webpack
 * 5, Rollup, Parcel) would otherwise fail the build of a project that does not install it.
 */
const OTEL_API = ['@opentelemetry', 'api'].join('/');

/** `@opentelemetry/api`, imported on the first traced call of any client. */
function loadApi(): Promise<typeof OTelApi> {
  loading ??= (
    import(/* webpackIgnore: true */ /* @vite-ignore */ OTEL_API) as Promise<typeof OTelApi>
  ).catch(() => {
    loading = undefined;
    throw new ConfigurationError(
      'tracing',
      'needs the package @opentelemetry/api: npm install @opentelemetry/api ' +
        '(or pass the module as tracing.api)',
    );
  });
  return loading;
}

/** True when `value` has what tracing calls of the `@opentelemetry/api` module. */
function isOTelApi(value: unknown): value is typeof OTelApi {
  const api = value as Partial<
    Record<'trace' | 'context' | 'propagation', Record<string, unknown>>
  >;
  return (
    typeof api === 'object' &&
    api !== null &&
    typeof api.trace?.getTracerProvider === 'function' &&
    typeof api.trace.setSpan === 'function' &&
    typeof api.context?.active === 'function' &&
    typeof api.context.with === 'function' &&
    typeof api.propagation?.inject === 'function'
  );
}

const headerSetter: TextMapSetter<Headers> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

/** One traced call: its span, its context and how many exchanges it has sent. */
interface CallTrace {
  readonly api: typeof OTelApi;
  readonly tracer: Tracer;
  readonly span: Span;
  readonly context: Context;
  exchanges: number;
}

/** The attributes of `url` a span carries: the address without user info, query or fragment. */
function urlAttributes(method: string, url: string): Record<string, string | number> {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  const attributes: Record<string, string | number> = {
    'http.request.method': method,
    'url.full': redactUrl(url),
  };
  if (parsed !== undefined) {
    attributes['server.address'] = parsed.hostname;
    attributes['server.port'] =
      parsed.port === '' ? (parsed.protocol === 'http:' ? 80 : 443) : Number(parsed.port);
  }
  return attributes;
}

/** A low-cardinality name of a failure: the HTTP status, else the error's class name. */
function errorType(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { status, name } = error as { status?: unknown; name?: unknown };
    if (typeof status === 'number') return String(status);
    if (typeof name === 'string' && name !== '') return name;
  }
  return '_OTHER';
}

/** The value of a tracing header as its span attribute (`http.request.header.<name>`). */
function idAttribute(span: Span, headers: Headers, name: string | undefined): void {
  const value = name === undefined ? null : headers.get(name);
  if (value !== null) span.setAttribute(`http.request.header.${name!.toLowerCase()}`, [value]);
}

/** The option names of `tracing`. */
export const TRACING_OPTION_NAMES: Record<keyof TracingOptions, true> = {
  api: true,
  tracerProvider: true,
  propagate: true,
};

/** The tracing of one client: a step of its pipeline, and a wrapper of what sends. */
export interface ClientTracing {
  /** The outermost step: one span per call. */
  readonly step: Step;
  /** Wraps the sender: one span per exchange, a child of its call's. */
  traceExchanges(send: Send): Send;
}

/**
 * Checks the `tracing` option and returns the tracing of one client, or undefined when it is
 * off: a client without tracing has no step of it and never loads `@opentelemetry/api`, which
 * is imported on the first traced call.
 */
export function createClientTracing(
  option: boolean | TracingOptions | undefined,
  headers: TracingHeaders,
): ClientTracing | undefined {
  const settings = resolveTracingOptions(option);
  if (settings === undefined) return undefined;
  const state: TracingState = { ...settings, headers, calls: new WeakMap(), tracer: undefined };
  return {
    step: (call, next) => traceCall(state, next, call),
    traceExchanges: (send) => (exchange) => traceExchange(state, send, exchange),
  };
}

/** The `tracing` option, checked; undefined when tracing is off. */
function resolveTracingOptions(option: boolean | TracingOptions | undefined) {
  if (option === undefined || option === false) return undefined;
  const settings: TracingOptions = option === true ? {} : option;
  if (typeof settings !== 'object' || settings === null) {
    throw new ConfigurationError(
      'tracing',
      'must be true, false or { tracerProvider?, propagate?, api? }',
    );
  }
  const { tracerProvider, propagate = false, api } = settings;
  if (tracerProvider !== undefined && typeof tracerProvider?.getTracer !== 'function') {
    throw new ConfigurationError(
      'tracing.tracerProvider',
      'must be an OpenTelemetry TracerProvider',
    );
  }
  if (typeof propagate !== 'boolean') {
    throw new ConfigurationError('tracing.propagate', 'must be true or false');
  }
  if (api !== undefined && !isOTelApi(api)) {
    throw new ConfigurationError(
      'tracing.api',
      "must be the @opentelemetry/api module (import * as api from '@opentelemetry/api')",
    );
  }
  return {
    tracerProvider: tracerProvider as TracerProvider | undefined,
    propagate,
    apiOf: api === undefined ? loadApi : () => Promise.resolve(api),
  };
}

/** One client's tracing: its settings, its tracer once made, and the calls in flight. */
interface TracingState extends NonNullable<ReturnType<typeof resolveTracingOptions>> {
  /**
   * The call of each exchange. The transport sets its headers on the call's own `Headers`
   * object and sends every attempt with it and with the call's abort signal: either one finds
   * the call of an exchange.
   */
  readonly calls: WeakMap<object, CallTrace>;
  readonly headers: TracingHeaders;
  tracer: Tracer | undefined;
}

async function traceCall(state: TracingState, next: Next, request: InFlight) {
  const api = await state.apiOf();
  const tracer = (state.tracer ??= (
    state.tracerProvider ?? api.trace.getTracerProvider()
  ).getTracer('@partner-apis/core'));
  const { method, url } = request;
  const parent = api.context.active();
  const options: SpanOptions = { kind: SPAN_KIND_INTERNAL, attributes: urlAttributes(method, url) };
  const span = tracer.startSpan(
    `${method} ${options.attributes?.['server.address'] ?? ''}`.trim(),
    options,
    parent,
  );
  const trace: CallTrace = {
    api,
    tracer,
    span,
    context: api.trace.setSpan(parent, span),
    exchanges: 0,
  };
  state.calls.set(request.headers, trace);
  try {
    const reply = await next(request);
    span.setAttribute('http.response.status_code', reply.answer.status);
    return reply;
  } catch (error) {
    span.setAttribute('error.type', errorType(error));
    if (typeof (error as { status?: unknown }).status === 'number') {
      span.setAttribute('http.response.status_code', (error as { status: number }).status);
    }
    span.setStatus({
      code: STATUS_ERROR,
      // Only the messages of this package's errors are known to carry no secret.
      message: error instanceof PartnerApisError ? error.message : undefined,
    });
    throw error;
  } finally {
    if (trace.exchanges > 1) span.setAttribute('http.request.resend_count', trace.exchanges - 1);
    idAttribute(span, request.headers, state.headers.conversationId);
    state.calls.delete(request.headers);
    span.end();
  }
}

async function traceExchange(state: TracingState, send: Send, exchange: Exchange) {
  const { headers, signal, method, url } = exchange;
  const call = state.calls.get(headers) ?? state.calls.get(signal);
  if (call === undefined) return send(exchange);
  state.calls.set(signal, call);
  const attributes = urlAttributes(method, url);
  if (call.exchanges > 0) attributes['http.request.resend_count'] = call.exchanges;
  call.exchanges += 1;
  const span = call.tracer.startSpan(method, { kind: SPAN_KIND_CLIENT, attributes }, call.context);
  idAttribute(span, headers, state.headers.requestId);
  idAttribute(span, headers, state.headers.conversationId);
  const context = call.api.trace.setSpan(call.context, span);
  if (state.propagate) call.api.propagation.inject(context, headers, headerSetter);
  try {
    const answer = await call.api.context.with(context, () => send(exchange));
    span.setAttribute('http.response.status_code', answer.status);
    if (answer.status >= 400) {
      span.setAttribute('error.type', String(answer.status));
      span.setStatus({ code: STATUS_ERROR });
    }
    return answer;
  } catch (error) {
    // A raw error of the sender: its class name only, as its message may say more.
    span.setAttribute('error.type', errorType(signal.aborted ? signal.reason : error));
    span.setStatus({ code: STATUS_ERROR });
    throw error;
  } finally {
    span.end();
  }
}
