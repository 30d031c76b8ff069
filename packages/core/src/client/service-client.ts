import createClient, { createQuerySerializer, type Client } from 'openapi-fetch';
import type { AuthScheme } from '@partner-apis/auth';
import {
  ApiError,
  CORRELATION_ID_HEADERS,
  ConfigurationError,
  InvalidArgumentError,
} from '@partner-apis/errors';
import type { ResponseMeta, WithResponse } from '../operations/api-promise.js';
import { checkCallOptions, isHeaderValue, type CallOptions } from '../operations/call-options.js';
import { createClientPipeline, type PipelineOptions } from './client-pipeline.js';
import {
  checkBodyKind,
  checkParameter,
  checkQuery,
  type AssumptionPolicy,
  type OperationDescription,
  type ParameterCheck,
} from '../operations/operation.js';
import { loggerFromEnv } from '../observe/log-from-env.js';
import type { TestHooks } from '../testing.js';
import type { CallOverrides, PipelineReply } from '../pipeline/call.js';
import { responseOf } from '../pipeline/fetch-shape.js';
import { userAgent as userAgentOf, type PackageIdentity } from './user-agent.js';
import {
  CALL_OPTION_NAMES,
  checkRequiredOptions,
  clientOptionNames,
  unknownOptions,
} from './unknown-options.js';

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** The tracing headers the pipeline sets on every attempt. */
export type TracingHeaderName = 'X-Z-Request-Id' | 'X-Z-Conversation-Id';

/** The header that ties the calls of one flow together, where an operation declares it. */
const CONVERSATION_HEADER = 'x-z-conversation-id';

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type RelaxHeader<H> = Simplify<
  Omit<H, TracingHeaderName> & Partial<Pick<H, Extract<keyof H, TracingHeaderName>>>
>;
type RelaxParameters<P> = P extends { header: infer H }
  ? [RequiredKeys<RelaxHeader<H>>] extends [never]
    ? Simplify<Omit<P, 'header'> & { header?: RelaxHeader<H> }>
    : Simplify<Omit<P, 'header'> & { header: RelaxHeader<H> }>
  : P;
type RelaxOperation<O> = O extends { parameters: infer P }
  ? Simplify<Omit<O, 'parameters'> & { parameters: RelaxParameters<P> }>
  : O;

/**
 * The generated `paths` with `X-Z-Request-Id` and `X-Z-Conversation-Id` optional: the specs
 * mark them required, but the client sets them itself.
 *
 * @example
 * const raw: Client<WithoutTracingHeaders<paths>> = client.raw;
 * await raw.GET('/approvals', { params: { query: { employeeNumber: '100234' } } });
 */
export type WithoutTracingHeaders<Paths> = {
  [Path in keyof Paths]: {
    [Key in keyof Paths[Path]]: Key extends HttpMethod
      ? RelaxOperation<Paths[Path][Key]>
      : Paths[Path][Key];
  };
};

/**
 * The options every `create…Client` takes beside its address, credentials and service
 * settings: timeouts, retries, redirects, events, logger, `fetch`, a `User-Agent`, and what to
 * do about the spec's assumptions.
 */
export interface ClientOptions extends Omit<
  PipelineOptions,
  'baseUrl' | 'auth' | 'conversationId' | 'rateLimit' | keyof TestHooks
> {
  /**
   * Your product in `User-Agent`, e.g. `claims-portal/2.3`: sent before the package's and the
   * runtime's (`claims-portal/2.3 partner-apis-approvals/1.2.3 node/20.19`).
   */
  userAgent?: string | undefined;
  /**
   * A value that breaks a constraint the documents do not state (the spec marks it
   * `x-upstream-gap`): `warn` and send it (default), `refuse` it before sending, or send it
   * silently (`off`). What the documents state is always refused before sending.
   */
  assumptions?: AssumptionPolicy | undefined;
}

/** How a service package turns its users' options into a service client. */
export interface ServiceWiring {
  /** The service's auth choice, built from the caller's `credentials` (checked to be an object). */
  auth(credentials: Record<string, unknown>): AuthScheme;
  /**
   * Pipeline option names as this service's users write them, e.g. `{ rateLimit: 'tier' }`; the
   * longest matching name wins. `auth.*` → `credentials.*` and the secret dates are built in.
   */
  optionNames?: Readonly<Record<string, string>> | undefined;
  rateLimit?: PipelineOptions['rateLimit'];
  /**
   * The `X-Z-Conversation-Id` of calls that give none, sent by `raw` calls too; without it,
   * operations that declare the header get a fresh UUID per client, and `raw` calls none.
   */
  conversationId?: string | undefined;
  /**
   * The service's own option names beyond `ClientOptions`, `baseUrl` and `credentials` (e.g.
   * `{ tier: true }`); an option the client does not know is reported once, and ignored.
   */
  serviceOptions?: Readonly<Record<string, true>> | undefined;
  /** The package the client comes from, named in every request's `User-Agent`. */
  package?: PackageIdentity | undefined;
}

/** The parameters and body of one call, as the spec names them. */
export interface CallArguments {
  readonly path?: Readonly<Record<string, unknown>> | undefined;
  readonly query?: Readonly<Record<string, unknown>> | undefined;
  readonly body?: unknown;
  /**
   * The query and the call options were checked already (the pages of one listing): they are
   * sent as they are, not checked again.
   */
  readonly checked?: boolean | undefined;
}

/** What a resource method gets back: the parsed body (if any), the response and its metadata. */
export interface CallResult extends ResponseMeta {
  readonly data: unknown;
  /** The response's status, without making the `Response`. */
  readonly status: number;
}

/**
 * The answer of one call as a resource method returns it: its data, and its `Response`, made
 * only when the caller asks for it (`withResponse()`), since most callers want the data and a
 * `Response` costs a few microseconds. A class, so every result has one shape: object literals
 * with a getter each would not, and V8 then moves the results of later calls to the old
 * generation, where every collection has to copy their bodies.
 */
class CallAnswer<T> implements CallResult, WithResponse<T> {
  readonly data: T;
  readonly status: number;
  readonly requestId: string | undefined;
  readonly correlationId: string | undefined;
  readonly conversationId: string | undefined;
  readonly attempts: number;
  readonly #reply: PipelineReply;
  #response: Response | undefined;

  constructor(reply: PipelineReply, data: T, correlationId: string | undefined) {
    this.data = data;
    this.status = reply.status;
    this.requestId = reply.requestId;
    this.correlationId = correlationId;
    this.conversationId = reply.conversationId;
    this.attempts = reply.attempts;
    this.#reply = reply;
  }

  get response(): Response {
    return (this.#response ??= responseOf(this.#reply));
  }

  withData<U>(data: U): CallAnswer<U> {
    const answer = new CallAnswer(this.#reply, data, this.correlationId);
    answer.#response = this.#response;
    return answer;
  }
}

/**
 * `result` with other data: what a resource method returns of a call. The `Response` stays
 * unmade until asked for.
 *
 * @example
 * return withData(result, recordsOf(operation, result.data, answered).records);
 */
export function withData<T>(result: CallResult, data: T): WithResponse<T> {
  if (result instanceof CallAnswer) return result.withData(data);
  return { ...result, data };
}

/** What resource methods are built on: one call of an operation of the spec. */
export interface ResourceClient {
  /** The `X-Z-Conversation-Id` of calls that give none, where an operation declares it. */
  readonly conversationId: string;
  /** What to do about values that break an assumed constraint. */
  readonly assumptions: AssumptionPolicy;
  /** Reports something the caller should know but that does not fail the call, once. */
  warn(message: string): void;
  /**
   * Sends one operation of the spec: checks the call options, the path and query parameters
   * against the operation's description and the body's serialisability before any request,
   * sets the conversation id where the operation declares one, and checks that a 2xx body is
   * of the JSON kind the spec gives.
   */
  call(
    operation: OperationDescription,
    args: CallArguments,
    options: CallOptions | undefined,
    name: string,
  ): Promise<CallResult>;
  /**
   * The same client, sending `conversationId` with the operations that declare the header
   * (a call's own `conversationId` still wins).
   */
  withConversation(conversationId: string): ResourceClient;
}

/** What a service package builds its resources on. */
export interface ServiceClient<Paths extends object = object> extends ResourceClient {
  /** The openapi-fetch client over the pipeline; non-2xx responses throw typed errors. */
  readonly raw: Client<WithoutTracingHeaders<Paths>>;
}

/** The auth schemes name their options `auth.*`; a service's users know them as `credentials.*`. */
const CREDENTIAL_OPTION_NAMES: Readonly<Record<string, string>> = {
  auth: 'credentials',
  secretCreatedAt: 'credentials.secretCreatedAt',
  secretExpiresAt: 'credentials.secretExpiresAt',
};

function renamed(error: ConfigurationError, names: Readonly<Record<string, string>>) {
  let match: string | undefined;
  for (const from of Object.keys(names)) {
    const covers = error.option === from || error.option.startsWith(`${from}.`);
    if (covers && (match === undefined || from.length > match.length)) match = from;
  }
  if (match === undefined) return error;
  return new ConfigurationError(
    `${names[match]}${error.option.slice(match.length)}`,
    error.problem,
  );
}

/**
 * Runs `create`; a `ConfigurationError` it throws is thrown again under the option's name as
 * the caller wrote it, so every message names an option the caller can find.
 *
 * @example
 * withOptionNames({ rateLimit: 'tier' }, () => createClientPipeline({ baseUrl, rateLimit: 'tin' }));
 * // throws ConfigurationError 'tier: must be bronze, silver, gold or { requestsPerSecond } (got tin)'
 */
export function withOptionNames<T>(names: Readonly<Record<string, string>>, create: () => T): T {
  try {
    return create();
  } catch (error) {
    throw error instanceof ConfigurationError ? renamed(error, names) : error;
  }
}

function objectOption(option: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigurationError(option, 'must be an object');
  }
  return value as Record<string, unknown>;
}

const ASSUMPTION_POLICIES: readonly AssumptionPolicy[] = ['warn', 'refuse', 'off'];

/** How many distinct warnings one client reports; a loop cannot fill memory with them. */
const MAX_WARNINGS = 100;

/** Process warning codes: a value breaking an assumption, and an option the client ignores. */
type WarningCode = 'PARTNER_APIS_ASSUMPTION' | 'PARTNER_APIS_UNKNOWN_OPTION';

function warner(logger: unknown): (message: string, code?: WarningCode) => void {
  const told = new Set<string>();
  const log =
    typeof (logger as { warn?: unknown } | undefined)?.warn === 'function'
      ? (message: string) => (logger as { warn(m: string): void }).warn(message)
      : (message: string, code: WarningCode) =>
          globalThis.process?.emitWarning?.(message, { code });
  return (message, code = 'PARTNER_APIS_ASSUMPTION') => {
    if (told.has(message) || told.size >= MAX_WARNINGS) return;
    told.add(message);
    try {
      log(message, code);
    } catch {
      // A logger that throws must not change the outcome of a call.
    }
  };
}

/** JSON of a request body, or an `InvalidArgumentError` for one that has none (circular, BigInt). */
function serialisedBody(body: unknown, name: string): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(body);
  } catch (error) {
    const why =
      error instanceof Error && /circular/i.test(error.message)
        ? 'it is circular'
        : 'it holds a BigInt or a value JSON cannot hold';
    throw new InvalidArgumentError('body', `cannot be sent as JSON: ${why}`, name);
  }
  if (json === undefined) throw new InvalidArgumentError('body', 'cannot be sent as JSON', name);
  return json;
}

/** A path parameter that would leave the operation's path once the URL is resolved. */
const DOT_SEGMENT = /^\.{1,2}$/;

/** The query string of a call, as openapi-fetch writes it for `raw` calls too. */
const serializeQuery = createQuerySerializer();

/** The call options a call passes on to the pipeline, where they differ from the client's. */
function overridesOf(
  timeout: CallOptions['timeout'],
  retry: CallOptions['retry'],
): CallOverrides | undefined {
  if (timeout === undefined && retry === undefined) return undefined;
  return {
    attemptTimeoutMs: timeout?.attemptMs,
    totalTimeoutMs: timeout?.totalMs,
    attempts: retry?.attempts,
    retryWrites: retry?.retryWrites,
  };
}

/** The call's result, with the correlation id the answer's headers carry. */
function callResult(reply: PipelineReply, data: unknown): CallResult {
  const { headers } = reply.answer;
  const correlationHeader = CORRELATION_ID_HEADERS.find((h) => headers.has(h));
  const correlationId =
    correlationHeader === undefined ? undefined : (headers.get(correlationHeader) ?? undefined);
  return new CallAnswer(reply, data, correlationId);
}

/**
 * Creates the client of one service from its users' options: checks them and their
 * `credentials` once (a bad option is a `ConfigurationError` naming it as the caller wrote it),
 * builds the service's auth scheme and the request pipeline, and the openapi-fetch client over
 * it for `raw` calls. Service packages build their resources on `call`, through the generated
 * `createResources`.
 *
 * @example
 * export function createApprovalsClient(options: ApprovalsClientOptions) {
 *   const client = createServiceClient<paths>(options, {
 *     auth: (credentials) => clientIdHeaders(credentials as unknown as ClientCredentials),
 *     rateLimit: options.tier,
 *     optionNames: { rateLimit: 'tier' },
 *   });
 *   return { ...createResources(client), raw: client.raw };
 * }
 */
export function createServiceClient<Paths extends object>(
  options: ClientOptions & { baseUrl: string; credentials: object },
  wiring: ServiceWiring,
): ServiceClient<Paths> {
  return withOptionNames({ ...CREDENTIAL_OPTION_NAMES, ...wiring.optionNames }, () => {
    objectOption('options', options);
    const known = clientOptionNames(wiring.serviceOptions);
    checkRequiredOptions(options, known);
    const credentials = objectOption('credentials', options.credentials);
    if (options.userAgent !== undefined && !isHeaderValue(options.userAgent)) {
      throw new ConfigurationError(
        'userAgent',
        'must be a non-empty string of Latin-1 characters without line breaks',
      );
    }
    // The caller's own product first, then ours and the runtime, as RFC 9110 §10.1.5 orders them.
    const userAgent =
      wiring.package === undefined
        ? options.userAgent
        : userAgentOf(wiring.package, options.userAgent);
    // PARTNER_APIS_LOG turns the wire log on for a client given no logger.
    const logger = options.logger ?? loggerFromEnv();
    const assumptions = options.assumptions ?? 'warn';
    if (!ASSUMPTION_POLICIES.includes(assumptions)) {
      throw new ConfigurationError(
        'assumptions',
        `must be warn, refuse or off (got ${String(assumptions)})`,
      );
    }
    const clientConversation = wiring.conversationId ?? globalThis.crypto.randomUUID();
    if (!isHeaderValue(clientConversation)) {
      throw new ConfigurationError(
        'conversationId',
        'must be a non-empty string of Latin-1 characters without line breaks',
      );
    }
    const rawHeaders: Record<string, string> = {};
    if (userAgent !== undefined) rawHeaders['user-agent'] = userAgent;
    if (wiring.conversationId !== undefined) rawHeaders[CONVERSATION_HEADER] = clientConversation;
    const pipeline = createClientPipeline({
      ...options,
      logger,
      auth: wiring.auth(credentials),
      rateLimit: wiring.rateLimit,
      // Calls set the conversation id themselves, where their operation declares it.
      conversationId: undefined,
    });
    const raw = createClient<WithoutTracingHeaders<Paths>>({
      baseUrl: pipeline.baseUrl,
      fetch: pipeline.fetch,
      headers: rawHeaders,
      bodySerializer: (body: unknown) => serialisedBody(body, 'request'),
    });
    const warn = warner(logger);
    for (const message of unknownOptions(options, known)) {
      warn(message, 'PARTNER_APIS_UNKNOWN_OPTION');
    }
    const { baseUrl, execute } = pipeline;

    async function call(
      operation: OperationDescription,
      args: CallArguments,
      callOptions: CallOptions | undefined,
      name: string,
      conversationId: string,
    ): Promise<CallResult> {
      const checked = args.checked === true;
      const {
        signal,
        conversationId: callConversation,
        timeout,
        retry,
      } = checked ? (callOptions ?? {}) : checkCallOptions(callOptions, name);
      if (callOptions !== undefined && !checked) {
        for (const message of unknownOptions(callOptions, CALL_OPTION_NAMES)) {
          warn(`${name}: ${message}`, 'PARTNER_APIS_UNKNOWN_OPTION');
        }
      }
      const check: ParameterCheck = { operation: name, assumptions, warn };
      const headers = new Headers();
      if (userAgent !== undefined) headers.set('user-agent', userAgent);
      let path = operation.path;
      for (const parameter of operation.parameters) {
        if (parameter.in === 'path') {
          const value = checkParameter(
            parameter,
            parameter.name,
            args.path?.[parameter.name],
            check,
          );
          if (typeof value === 'string' && DOT_SEGMENT.test(value)) {
            throw new InvalidArgumentError(
              parameter.name,
              `cannot be ${JSON.stringify(value)}`,
              name,
            );
          }
          // One segment each: a `/` in the value is sent encoded, never as a path separator.
          path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
        } else if (
          parameter.in === 'header' &&
          parameter.name.toLowerCase() === CONVERSATION_HEADER
        ) {
          headers.set(CONVERSATION_HEADER, callConversation ?? conversationId);
        }
      }
      const query = serializeQuery(
        checked ? (args.query ?? {}) : checkQuery(operation, args.query ?? {}, '', check),
      );
      let body: string | undefined;
      if (args.body !== undefined) {
        body = serialisedBody(args.body, name);
        headers.set('content-type', 'application/json');
      }
      const reply = await execute({
        method: operation.method,
        url: query === '' ? `${baseUrl}${path}` : `${baseUrl}${path}?${query}`,
        headers,
        body,
        signal,
        overrides: overridesOf(timeout, retry),
      });
      const data =
        reply.json !== undefined
          ? reply.json.value
          : reply.answer.bytes.byteLength === 0 || operation.method === 'HEAD'
            ? undefined
            : await responseOf(reply).json();
      checkBodyKind(operation, data, {
        operation: name,
        method: operation.method,
        status: reply.status,
      });
      return callResult(reply, data);
    }

    function view(conversationId: string): ResourceClient {
      return {
        conversationId,
        assumptions,
        warn,
        call: (operation, args, callOptions, name) =>
          call(operation, args, callOptions, name, conversationId),
        withConversation(id) {
          if (!isHeaderValue(id)) {
            throw new InvalidArgumentError(
              'conversationId',
              'must be a non-empty string of Latin-1 characters without line breaks',
              'conversation',
            );
          }
          return view(id);
        },
      };
    }

    return { ...view(clientConversation), raw };
  });
}

/**
 * The data of a call (or of a `raw` call); an `ApiError` (code `unexpected_response`) when a
 * 2xx response had no body the spec promises.
 *
 * @example
 * return expectData(await client.call(getQuote, { path: { quoteId } }, options, 'quotes.get'), 'quotes.get');
 */
export function expectData<T>(
  result: { data?: T } & ({ status: number } | { response: Response }),
  operation: string,
): Exclude<T, undefined> {
  if (result.data !== undefined) return result.data as Exclude<T, undefined>;
  // A call's result carries its status; a `raw` call's, its response.
  const status = 'status' in result ? result.status : result.response.status;
  throw new ApiError({
    status,
    code: 'unexpected_response',
    message: `${operation} answered ${status} without a body`,
  });
}
