import createClient, { type Client } from 'openapi-fetch';
import type { AuthScheme } from '@partner-apis/auth';
import { ConfigurationError, InvalidArgumentError } from '@partner-apis/errors';
import { loggerFromEnv } from '../observe/log-from-env.js';
import { isHeaderValue } from '../operations/call-options.js';
import type { WarningCode } from '../observe/observer.js';
import type { AssumptionPolicy, ServiceDescription } from '../operations/operation.js';
import type { TestHooks } from '../testing.js';
import { createClientPipeline, type PipelineOptions } from './client-pipeline.js';
import type { ResourceClient } from '../operations/resource-client.js';
import { callOperation } from './operation-call.js';
import { serialisedBody } from '../operations/request-body.js';
import type { TracingHeaderName, WithoutTracingHeaders } from './raw-client-types.js';
import { TRACING_OPTION_NAMES } from '../observe/tracing.js';
import { TIMEOUT_OPTION_NAMES } from '../pipeline/attempt.js';
import {
  checkRequiredOptions,
  unknownOptions,
  type OptionNames,
} from '../pipeline/option-names.js';
import { RETRY_OPTION_NAMES } from '../pipeline/retry.js';
import { userAgent as userAgentOf, type PackageIdentity } from './user-agent.js';
import { refuseSecretInBrowser } from './browser-guard.js';

/**
 * The options every `create…Client` takes beside its address, credentials and service
 * settings: timeouts, retries, redirects, events, logger, `fetch`, a `User-Agent`, and what to
 * do about the spec's assumptions.
 */
export interface ClientOptions extends Omit<
  PipelineOptions,
  | 'baseUrl'
  | 'auth'
  | 'conversationId'
  | 'rateLimit'
  | 'tracingHeaders'
  | 'userAgent'
  | keyof TestHooks
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
  /** Lets a client holding a client secret run in a browser page, which shows it to anyone. */
  dangerouslyAllowBrowser?: boolean | undefined;
}

/** What every `create…Client` takes: `ClientOptions`, its address, credentials and test hooks. */
const CLIENT_OPTION_NAMES: Record<
  keyof ClientOptions | keyof TestHooks | 'baseUrl' | 'credentials',
  true
> = {
  baseUrl: true,
  credentials: true,
  retry: true,
  timeout: true,
  fleet: true,
  maxRedirects: true,
  events: true,
  logger: true,
  logHeaders: true,
  maxResponseBytes: true,
  agent: true,
  tracing: true,
  fetch: true,
  clock: true,
  sleep: true,
  random: true,
  userAgent: true,
  assumptions: true,
  dangerouslyAllowBrowser: true,
};

/**
 * The option names a client of a service takes: those of every client, and the service's own.
 */
export function clientOptionNames(own: Readonly<Record<string, true>> = {}): OptionNames {
  return {
    names: { ...CLIENT_OPTION_NAMES, ...own },
    nested: {
      retry: { names: RETRY_OPTION_NAMES },
      timeout: { names: TIMEOUT_OPTION_NAMES },
      tracing: { names: TRACING_OPTION_NAMES },
    },
  };
}

/** How a service package turns its users' options into a service client. */
export interface ServiceWiring {
  /**
   * What its spec says at run time (the `service` of its generated `operations.ts`): which
   * headers the client sets itself. None sets none.
   */
  service?: ServiceDescription | undefined;
  /** The service's auth choice, built from the caller's `credentials` (checked to be an object). */
  auth(credentials: Record<string, unknown>): AuthScheme;
  /**
   * Pipeline option names as this service's users write them, e.g. `{ rateLimit: 'tier' }`; the
   * longest matching name wins. `auth.*` → `credentials.*` and the secret dates are built in.
   */
  optionNames?: Readonly<Record<string, string>> | undefined;
  rateLimit?: PipelineOptions['rateLimit'];
  /**
   * The conversation id of calls that give none, sent by `raw` calls too; without it,
   * operations that declare its header get a fresh UUID per client, and `raw` calls none.
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

/** What a service package builds its resources on (`S`: its service description). */
export interface ServiceClient<Paths extends object = object, S = unknown> extends ResourceClient {
  /** The openapi-fetch client over the pipeline; non-2xx responses throw typed errors. */
  readonly raw: Client<WithoutTracingHeaders<Paths, TracingHeaderName<S>>>;
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

function resolveAssumptions(value: unknown): AssumptionPolicy {
  if (value === undefined) return 'warn';
  if (!ASSUMPTION_POLICIES.includes(value as AssumptionPolicy)) {
    throw new ConfigurationError(
      'assumptions',
      `must be warn, refuse or off (got ${String(value)})`,
    );
  }
  return value as AssumptionPolicy;
}

const NOT_A_HEADER_VALUE = 'must be a non-empty string of Latin-1 characters without line breaks';

function resolveUserAgent(own: unknown, pkg: PackageIdentity | undefined): string | undefined {
  if (own !== undefined && !isHeaderValue(own)) {
    throw new ConfigurationError('userAgent', NOT_A_HEADER_VALUE);
  }
  // The caller's own product first, then ours and the runtime, as RFC 9110 §10.1.5 orders them.
  return pkg === undefined ? own : userAgentOf(pkg, own);
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
export function createServiceClient<Paths extends object, S extends ServiceDescription = never>(
  options: ClientOptions & { baseUrl: string; credentials: object },
  wiring: ServiceWiring & { service?: S },
): ServiceClient<Paths, S> {
  return withOptionNames({ ...CREDENTIAL_OPTION_NAMES, ...wiring.optionNames }, () => {
    objectOption('options', options);
    const known = clientOptionNames(wiring.serviceOptions);
    checkRequiredOptions(options, known);
    const credentials = objectOption('credentials', options.credentials);
    refuseSecretInBrowser(options, credentials);
    const assumptions = resolveAssumptions(options.assumptions);
    const clientConversation = wiring.conversationId ?? globalThis.crypto.randomUUID();
    if (!isHeaderValue(clientConversation)) {
      throw new ConfigurationError('conversationId', NOT_A_HEADER_VALUE);
    }
    // PARTNER_APIS_LOG turns the wire log on for a client given no logger.
    const logger = options.logger ?? loggerFromEnv();
    const pipeline = createClientPipeline({
      ...options,
      logger,
      userAgent: resolveUserAgent(options.userAgent, wiring.package),
      auth: wiring.auth(credentials),
      rateLimit: wiring.rateLimit,
      tracingHeaders: wiring.service?.tracingHeaders,
      // Calls set the conversation id themselves, where their operation declares it.
      conversationId: undefined,
    });
    const conversationHeader = wiring.service?.tracingHeaders.conversationId;
    const raw = createClient<WithoutTracingHeaders<Paths, TracingHeaderName<S>>>({
      baseUrl: pipeline.baseUrl,
      fetch: pipeline.fetch,
      headers:
        wiring.conversationId === undefined || conversationHeader === undefined
          ? {}
          : { [conversationHeader]: clientConversation },
      bodySerializer: (body: unknown) => serialisedBody(body, 'request'),
    });
    const warn = (message: string, code: WarningCode = 'PARTNER_APIS_ASSUMPTION') =>
      pipeline.warn(message, code);
    for (const message of unknownOptions(options, known)) {
      warn(message, 'PARTNER_APIS_UNKNOWN_OPTION');
    }
    const { baseUrl, execute } = pipeline;

    function view(conversationId: string): ResourceClient {
      return {
        conversationId,
        assumptions,
        warn,
        call: (operation, args, callOptions, name) =>
          callOperation(
            execute,
            baseUrl,
            operation,
            args,
            callOptions,
            { operation: name, assumptions, warn },
            conversationId,
          ),
        withConversation(id) {
          if (!isHeaderValue(id)) {
            throw new InvalidArgumentError('conversationId', NOT_A_HEADER_VALUE, 'conversation');
          }
          return view(id);
        },
      };
    }

    return { ...view(clientConversation), raw };
  });
}
