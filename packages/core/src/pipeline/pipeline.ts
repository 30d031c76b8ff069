import { isLoopbackHost } from '@partner-apis/auth';
import { ConfigurationError, redactUrl } from '@partner-apis/errors';
import { resolveAttemptOptions, type ResolvedAttempt } from './attempt.js';
import { CallScope } from './call-scope.js';
import { chain, withQuery, type Execute, type InFlight, type Next, type Step } from './call.js';
import { conversationOf, type ResolvedTracing } from './request-id.js';
import { resolveRetryOptions, type ResolvedRetry } from './retry.js';

/** What every call of one pipeline starts from. */
export interface PipelineSettings {
  readonly attempt: ResolvedAttempt;
  readonly retry: ResolvedRetry;
  /** URLs starting with this (the base URL's origin and `/`) need no check. */
  readonly trustedPrefix: string | undefined;
  /** The client's tracing headers and conversation id; none for token requests. */
  readonly tracing: ResolvedTracing | undefined;
  /** Sent by every call that does not set its own. */
  readonly userAgent: string | undefined;
  readonly clock: () => number;
}

function assertSecure(url: string, trustedPrefix: string | undefined): void {
  if (url.startsWith('https:') || (trustedPrefix !== undefined && url.startsWith(trustedPrefix))) {
    return;
  }
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return;
  throw new ConfigurationError('baseUrl', `must use https (got ${redactUrl(url)})`);
}

/**
 * A pipeline: `steps` in order, the first outermost, over `send`. Each call gets its deadline
 * (the caller's signal, `timeout.totalMs`), its retry budget and the settings it overrides;
 * whatever ends it early, the caller gets the call's reason: its own abort reason, or the
 * deadline's `TimeoutError`.
 */
export function createPipeline(s: PipelineSettings, steps: readonly Step[], send: Next): Execute {
  const run = chain(steps, send);
  return async function execute(call) {
    const { method, url, headers, overrides } = call;
    assertSecure(url, s.trustedPrefix);
    if (s.userAgent !== undefined && !headers.has('user-agent')) {
      headers.set('user-agent', s.userAgent);
    }
    const limits =
      overrides?.timeout === undefined
        ? s.attempt
        : resolveAttemptOptions(overrides, s.attempt, overrides.fail);
    const retry =
      overrides?.retry === undefined
        ? s.retry
        : resolveRetryOptions(overrides, s.retry, overrides.fail);
    const scope = new CallScope(call.signal, limits.totalTimeoutMs, s.clock(), { method, url });
    let shown: string | undefined;
    const conversationId = s.tracing && conversationOf(headers, s.tracing);
    const inFlight: InFlight = {
      method,
      url,
      headers,
      body: call.body,
      scope,
      budget: call.budget ?? { retriesLeft: retry.attempts - 1 },
      limits,
      retry,
      conversationId,
      attempt: 1,
      request: { method, url, requestId: undefined, conversationId },
      sendUrl: call.secretQuery?.length ? withQuery(url, call.secretQuery) : undefined,
      slot: undefined,
      authContext: undefined,
      shownUrl: () => (shown ??= redactUrl(url)),
    };
    try {
      const { answer, json } = await run(inFlight);
      return {
        status: answer.status,
        answer,
        json,
        request: inFlight.request,
        requestId: inFlight.request.requestId,
        conversationId,
        attempts: inFlight.attempt,
      };
    } catch (error) {
      if (scope.ended) throw scope.reason;
      throw error;
    } finally {
      scope.dispose();
    }
  };
}
