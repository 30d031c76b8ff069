import { basicAuth, type ClientCredentials } from '@partner-apis/auth';
import {
  createServiceClient,
  type ClientOptions,
  type CustomRateLimit,
  type RateLimitTier,
  type ResourceClient,
  type ServiceClient,
} from '@partner-apis/core';
import type { paths } from './generated/openapi.js';
import { createResources, type Resources } from './generated/resources.js';
import { service } from './generated/operations.js';
import { withManualReferral, type Quotes } from './quotes.js';

declare const __PACKAGE_VERSION__: string | undefined;
/** This package, as the `User-Agent` of its requests names it; the build writes in its version. */
const PACKAGE = {
  name: '@partner-apis/liability',
  version: typeof __PACKAGE_VERSION__ === 'string' ? __PACKAGE_VERSION__ : undefined,
};

/** The sellers of the liability service: `create` registers one; quotes are then requested for it. */
export type Sellers = Resources['sellers'];

/** Options of `createLiabilityClient`; every pipeline option of `ClientOptions` applies too. */
export interface LiabilityClientOptions extends ClientOptions {
  /** The environment's address, ending in the v1 and environment segments; no host is published. */
  baseUrl: string;
  /** The client ID and secret of the client application registered on the exchange portal. */
  credentials: ClientCredentials;
  /** The `X-Z-Conversation-Id` of every call of this client; a fresh UUID by default. */
  conversationId?: string | undefined;
  /** Calls per second; none by default (the service applies no throttling today). */
  rateLimit?: RateLimitTier | CustomRateLimit | undefined;
}

/** Every resource of the spec (sellers, quotes, …), bound to one `X-Z-Conversation-Id`. */
export interface LiabilityConversation extends Omit<Resources, 'quotes'> {
  /** The `X-Z-Conversation-Id` these calls send (a call's own `conversationId` wins). */
  readonly conversationId: string;
  readonly quotes: Quotes;
}

/** The openapi-fetch client of the liability spec; the client sets the tracing headers. */
export type LiabilityRaw = ServiceClient<paths, typeof service>['raw'];

/** A client of the third party liability quote API. */
export interface LiabilityClient extends LiabilityConversation {
  /**
   * The same sellers and quotes under another `X-Z-Conversation-Id` (a fresh UUID by default),
   * so the calls of one flow, e.g. a seller and its quote, can be traced together.
   *
   * @example
   * const flow = client.conversation();
   * const { sellerId } = await flow.sellers.create(seller);
   * await flow.quotes.create({ ...quote, insureds: [{ sellerId }] });
   */
  conversation(conversationId?: string): LiabilityConversation;
  /** The openapi-fetch client for anything else in the spec; errors are thrown, typed. */
  readonly raw: LiabilityRaw;
}

/** The calls of one conversation: a call's own `conversationId` wins over the conversation's. */
function bind(client: ResourceClient): LiabilityConversation {
  const resources = createResources(client);
  return {
    ...resources,
    conversationId: client.conversationId,
    quotes: withManualReferral(resources.quotes),
  };
}

/** The options of this client beyond those of every client. */
const LIABILITY_OPTIONS: Record<
  Exclude<keyof LiabilityClientOptions, keyof ClientOptions>,
  true
> = { baseUrl: true, credentials: true, conversationId: true, rateLimit: true };

/**
 * Creates a client of the third party liability quote API: HTTP Basic with the client ID and
 * secret, a fresh `X-Z-Request-Id` on every request and one `X-Z-Conversation-Id` per client
 * (or per `conversation()`, or per call). Options are checked here: a bad one is a
 * `ConfigurationError` naming it.
 *
 * @example
 * const client = createLiabilityClient({
 *   baseUrl: 'https://liability.example.com/v1/uat',
 *   credentials: { clientId: 'my-client', clientSecret: process.env.LIABILITY_SECRET ?? '' },
 * });
 * const { sellerId } = await client.sellers.create({ name: 'Nordlicht Home GmbH', address: { country: 'DE' } });
 */
export function createLiabilityClient(options: LiabilityClientOptions): LiabilityClient {
  const client = createServiceClient<paths, typeof service>(options, {
    service,
    auth: (credentials) => basicAuth(credentials as unknown as ClientCredentials),
    rateLimit: options?.rateLimit,
    conversationId: options?.conversationId ?? globalThis.crypto.randomUUID(),
    serviceOptions: LIABILITY_OPTIONS,
    package: PACKAGE,
  });
  return {
    ...bind(client),
    raw: client.raw,
    conversation(id = globalThis.crypto.randomUUID()) {
      return bind(client.withConversation(id));
    },
  };
}
