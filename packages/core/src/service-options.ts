import type { AuthScheme } from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import type { PipelineOptions } from './client-pipeline.js';
import { createServiceClient, type ServiceClient } from './service-client.js';

/**
 * The options every `create…Client` takes beside its address, credentials and service
 * settings: timeouts, retries, redirects, events, logger, `fetch`, and a `User-Agent`.
 */
export interface ClientOptions extends Omit<
  PipelineOptions,
  'baseUrl' | 'auth' | 'conversationId' | 'rateLimit'
> {
  /** Sent as `User-Agent` on every request, e.g. `claims-portal/2.3`; the runtime's by default. */
  userAgent?: string | undefined;
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
  conversationId?: PipelineOptions['conversationId'];
  /** Fixed headers of every request, e.g. a client-wide `X-Z-Conversation-Id`. */
  headers?: Readonly<Record<string, string>> | undefined;
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
  const problem = error.message.slice(error.option.length + 2);
  return new ConfigurationError(`${names[match]}${error.option.slice(match.length)}`, problem);
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

/**
 * True when `value` can be sent as a header value: a non-empty string of Latin-1 characters
 * without line breaks or NUL, which `Headers` would otherwise refuse with a raw `TypeError`.
 *
 * @example
 * isHeaderValue('flow-42'); // true
 * isHeaderValue('a\r\nb');  // false
 * isHeaderValue('flow-€');  // false
 */
export function isHeaderValue(value: unknown): value is string {
  return (
    typeof value === 'string' && value.trim() !== '' && /^[\t\x20-\x7e\x80-\xff]+$/.test(value)
  );
}

function objectOption(option: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigurationError(option, 'must be an object');
  }
  return value as Record<string, unknown>;
}

/**
 * Creates the service client of a `create…Client` from the caller's options: checks that they
 * and their `credentials` are objects, builds the service's auth scheme, sets the fixed headers
 * and `User-Agent`, and validates everything once, here. A bad option is a `ConfigurationError`
 * naming it as the caller wrote it (`credentials.clientSecret`, not `auth.clientSecret`).
 *
 * @example
 * export function createLiabilityClient(options: LiabilityClientOptions) {
 *   const { raw } = createServiceClientFromOptions<paths>(options, {
 *     auth: (credentials) => basicAuth(credentials as ClientCredentials),
 *     rateLimit: options.rateLimit,
 *   });
 *   return { raw };
 * }
 */
export function createServiceClientFromOptions<Paths extends object>(
  options: ClientOptions & { baseUrl: string; credentials: object },
  service: ServiceWiring,
): ServiceClient<Paths> {
  return withOptionNames({ ...CREDENTIAL_OPTION_NAMES, ...service.optionNames }, () => {
    objectOption('options', options);
    const credentials = objectOption('credentials', options.credentials);
    const headers: Record<string, string> = { ...service.headers };
    if (options.userAgent !== undefined) {
      if (!isHeaderValue(options.userAgent)) {
        throw new ConfigurationError('userAgent', 'must be a non-empty string without line breaks');
      }
      headers['user-agent'] = options.userAgent;
    }
    return createServiceClient<Paths>({
      ...options,
      auth: service.auth(credentials),
      rateLimit: service.rateLimit,
      conversationId: service.conversationId,
      headers,
    });
  });
}
