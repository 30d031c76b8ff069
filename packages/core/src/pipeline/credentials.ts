import type { AuthAnswer, AuthContext, AuthScheme } from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import type { Observer } from '../observe/observer.js';
import { textOf } from '../transport/buffered-response.js';
import type { Answer } from '../transport/exchange.js';
import { HeaderMap, publicHeaders } from '../transport/header-map.js';
import { withQuery, type Execute, type InFlight, type Step } from './call.js';
import { callOfFetch, responseOf } from './fetch-shape.js';
import type { Resolver } from './options.js';

/** How requests are authenticated. */
export interface CredentialsOptions {
  /** How requests are authenticated; none by default. */
  auth?: AuthScheme | undefined;
}

/**
 * Checks `auth` once, when the client is built.
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
 * What a scheme is handed for one call. A class, not an object literal: a literal with a getter
 * is built on V8's slow path, a cost every call paid though most schemes never read `signal`.
 * `fetch` and `send` are fields, so a scheme may take them off the context and call them alone.
 */
class CallAuthContext implements AuthContext {
  readonly #call: InFlight;
  readonly now: () => number;
  readonly events: AuthContext['events'];
  readonly fetch: AuthContext['fetch'];
  readonly send: AuthContext['send'];

  constructor(call: InFlight, run: CredentialsRuntime) {
    this.#call = call;
    this.now = run.clock;
    this.events = run.observer.authEvents;
    this.fetch = async (input, init) =>
      responseOf(
        await run.tokenExecute({ ...(await callOfFetch(input, init)), budget: call.budget }),
      );
    this.send = async ({ method, url, headers, query, body }) => {
      const { answer } = await run.tokenExecute({
        method,
        url,
        headers: new HeaderMap(headers),
        body,
        signal: undefined,
        budget: call.budget,
        secretQuery: query,
      });
      return authAnswerOf(answer);
    };
  }

  get signal(): AbortSignal {
    return this.#call.scope.signal;
  }
}

/**
 * The step that adds the scheme's credentials to every attempt, and on a 401 lets the scheme
 * repair them (refresh the token, fail over to the secondary key) and sends again, at most
 * twice per call; a repair does not use up an attempt. The scheme's token requests spend the
 * call's retries, not retries of their own.
 */
export function credentialsStep(run: CredentialsRuntime): Step {
  const { auth } = run;
  return async (call, next) => {
    // One context per call, the same for each of its attempts: a scheme may key state by it.
    const context = (call.authContext ??= new CallAuthContext(call, run));
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
