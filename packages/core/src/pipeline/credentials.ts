import type { AuthAnswer, AuthContext, AuthScheme } from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import type { Observer } from '../observe/observer.js';
import { textOf } from '../transport/buffered-response.js';
import type { Answer } from '../transport/exchange.js';
import { publicHeaders } from '../transport/received-headers.js';
import type { Execute, InFlight, Step } from './call.js';
import { callOfFetch, responseOf } from './fetch-shape.js';
import type { Resolver } from './options.js';

/** How requests are authenticated. */
export interface CredentialsOptions {
  /** How requests are authenticated; none by default. */
  auth?: AuthScheme | undefined;
}

/**
 * Checks `auth` once, when the client is built.
 *
 * @example
 * resolveCredentialsOptions({ auth: basicAuth({ clientId, clientSecret }) });
 */
export const resolveCredentialsOptions: Resolver<CredentialsOptions, AuthScheme | undefined> = ({
  auth,
}) => {
  if (auth === undefined) return undefined;
  const candidate = auth as Partial<AuthScheme> | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.authorize !== 'function' ||
    !Array.isArray(candidate.secretHeaderNames)
  ) {
    throw new ConfigurationError(
      'auth',
      'must be an auth scheme, e.g. basicAuth(…), clientIdHeaders(…) or oauth2ClientCredentials(…)',
    );
  }
  return auth;
};

/** `url` with the credentials' query parameters added. */
function withQuery(url: string, parameters: readonly (readonly [string, string])[]): string {
  const pairs = parameters.map(
    ([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
  );
  return `${url}${url.includes('?') ? '&' : '?'}${pairs.join('&')}`;
}

/** An answer as a scheme reads it: status, real `Headers` and the body's text, no `Response`. */
function authAnswerOf({ status, statusText, headers, bytes }: Answer): AuthAnswer {
  return { status, statusText, headers: publicHeaders(headers), text: textOf(bytes) };
}

/** How often one call may ask the auth scheme to repair a 401 (refresh, then key failover). */
const MAX_UNAUTHORIZED_REPAIRS = 2;

/** What the credentials step needs: the scheme, and the pipeline its token requests take. */
export interface CredentialsRuntime {
  readonly auth: AuthScheme;
  /** The same steps without credentials, request ids and rate limit. */
  readonly tokenExecute: Execute;
  readonly observer: Observer;
  readonly clock: () => number;
}

/**
 * The step that adds the scheme's credentials to every attempt, and on a 401 lets the scheme
 * repair them (refresh the token, fail over to the secondary key) and sends again, at most
 * twice per call; a repair does not use up an attempt. The scheme's token requests spend the
 * call's retries, not retries of their own.
 */
export function credentialsStep(run: CredentialsRuntime): Step {
  const { auth, tokenExecute } = run;
  // One context per call, the same for each of its attempts: a scheme may key state by it.
  const contexts = new WeakMap<InFlight, AuthContext>();
  const contextOf = (call: InFlight): AuthContext => {
    let context = contexts.get(call);
    if (context === undefined) {
      context = {
        get signal() {
          return call.scope.signal;
        },
        fetch: async (input, init) =>
          responseOf(
            await tokenExecute({ ...(await callOfFetch(input, init)), budget: call.budget }),
          ),
        send: async ({ method, url, headers, body }) => {
          const { answer } = await tokenExecute({
            method,
            url,
            headers: new Headers(headers),
            body,
            signal: undefined,
            budget: call.budget,
          });
          return authAnswerOf(answer);
        },
        now: run.clock,
        events: run.observer.authEvents,
      };
      contexts.set(call, context);
    }
    return context;
  };
  return async (call, next) => {
    const context = contextOf(call);
    for (let repairs = 0; ; repairs += 1) {
      await auth.authorize(call.headers, context);
      const query = auth.queryParameters?.();
      if (query !== undefined && query.length > 0) call.sendUrl = withQuery(call.url, query);
      const reply = await next(call);
      if (
        reply.answer.status !== 401 ||
        auth.onUnauthorized === undefined ||
        repairs === MAX_UNAUTHORIZED_REPAIRS
      ) {
        return reply;
      }
      const verdict = await auth.onUnauthorized(authAnswerOf(reply.answer), context);
      if (verdict !== 'retry') return reply;
    }
  };
}
