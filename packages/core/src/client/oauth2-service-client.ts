import {
  oauth2ClientCredentials,
  type ClientCredentials,
  type KeyPlacement,
  type Scope,
  type TokenCache,
} from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import { resolveFleet } from '../rate-limit/fleet.js';
import type { CustomRateLimit, RateLimitTier } from '../rate-limit/limiter.js';
import type { ServiceDescription } from '../operations/operation.js';
import type { ClientOptions, ServiceWiring } from './service-client.js';

/** The subscription key pair issued per API scope; either key works. */
export interface SubscriptionKeys {
  /** The key sent first. */
  primary: string;
  /** Takes over, for the rest of the client's life, once the primary key is refused. */
  secondary?: string | undefined;
}

/** A client ID, secret and subscription key pair of an OAuth 2.0 service. */
export interface OAuth2ServiceCredentials extends ClientCredentials {
  subscriptionKeys: SubscriptionKeys;
}

/** What the `create…Client` of an OAuth 2.0 service (exposure, risk engineering) takes. */
export interface OAuth2ServiceClientOptions extends ClientOptions {
  /** The service's request address (`{base_url}`); `https:` except on loopback hosts. */
  baseUrl: string;
  /** The token endpoint, `{auth_url}/login/connect/token`; `https:` except on loopback hosts. */
  tokenUrl: string;
  credentials: OAuth2ServiceCredentials;
  /** A client-side rate limit: a tier or `{ requestsPerSecond, burst? }`; none by default. */
  rateLimit?: RateLimitTier | CustomRateLimit | undefined;
  /** Joins the scopes in the token request; the token spec's encoding of `scope` by default. */
  scopeSeparator?: string | undefined;
  /**
   * The header of the subscription key, on data and token requests; by default each spec's
   * `apiKey` scheme (a header, the query or a cookie): the service's on data requests, the token
   * endpoint's on token requests.
   */
  subscriptionKeyHeader?: string | undefined;
  /**
   * Where access tokens are kept; the `fleet`'s when there is one, else one cache shared by every
   * client of the process.
   */
  tokenCache?: TokenCache | undefined;
}

/** The options of an OAuth 2.0 service's client beyond `ClientOptions`. */
const OAUTH2_SERVICE_OPTION_NAMES: Record<
  Exclude<keyof OAuth2ServiceClientOptions, keyof ClientOptions>,
  true
> = {
  baseUrl: true,
  tokenUrl: true,
  credentials: true,
  rateLimit: true,
  scopeSeparator: true,
  subscriptionKeyHeader: true,
  tokenCache: true,
};

/** The auth scheme's option names, as the caller of a `create…Client` writes them. */
const OPTION_NAMES: Readonly<Record<string, string>> = {
  'auth.tokenUrl': 'tokenUrl',
  'auth.scopeSeparator': 'scopeSeparator',
  'auth.subscriptionKey': 'subscriptionKeyHeader',
  'auth.tokenRequestKey': 'subscriptionKeyHeader',
};

/** Where the service's spec sends its subscription key: its `apiKey` scheme, if it has one. */
function subscriptionKeyOf(service: ServiceDescription): KeyPlacement | undefined {
  return Object.values(service.securitySchemes).find((scheme) => scheme.type === 'apiKey');
}

/**
 * The wiring of an OAuth 2.0 client credentials service with a subscription key pair, for
 * `createServiceClient`: tokens for `scopes`, cached per token URL, client ID and scope set,
 * refreshed before expiry and on a 401, and the secondary key when the primary is refused. A
 * bad option is a `ConfigurationError` naming it as the caller wrote it (`tokenUrl`,
 * `credentials.clientSecret`, `credentials.subscriptionKeys.primary`, …).
 *
 * @example
 * export function createExposureClient(options: ExposureClientOptions) {
 *   const client = createServiceClient<paths>(options, oauth2Service(options, EXPOSURE_SCOPES, operations));
 *   return { ...createResources(client, options), raw: client.raw };
 * }
 */
export function oauth2Service<S extends ServiceDescription>(
  options: OAuth2ServiceClientOptions,
  scopes: readonly Scope[],
  service: S,
): ServiceWiring & { service: S } {
  // The caller's header wins, on data and token requests, over where the specs put the key.
  const header = options?.subscriptionKeyHeader;
  const own = header === undefined ? undefined : ({ in: 'header', name: header } as const);
  return {
    service,
    auth(credentials) {
      const { tokenCache } = options;
      if (tokenCache !== undefined && typeof tokenCache?.singleFlight !== 'function') {
        throw new ConfigurationError(
          'tokenCache',
          'must be a token cache, e.g. createTokenCache()',
        );
      }
      return oauth2ClientCredentials({
        ...(credentials as unknown as OAuth2ServiceCredentials),
        tokenUrl: options.tokenUrl,
        scopes,
        scopeSeparator: options.scopeSeparator,
        subscriptionKey: own ?? subscriptionKeyOf(service),
        tokenRequestKey: own,
        tokenCache: tokenCache ?? resolveFleet(options.fleet)?.tokenCache,
      });
    },
    optionNames: OPTION_NAMES,
    serviceOptions: OAUTH2_SERVICE_OPTION_NAMES,
    // `?.`: a caller without types may pass no object; that is reported as `options` inside.
    rateLimit: options?.rateLimit,
  };
}
