import type { AuthEvents, KeyFailoverEvent, TokenRefreshEvent } from '@partner-apis/auth';
import type { PartnerApisError } from '@partner-apis/errors';

/** Reported before each attempt is sent. */
export interface RequestEvent {
  readonly method: string;
  /** The URL with user info, query and fragment redacted. */
  readonly url: string;
  /** 1 for the first attempt of a call. */
  readonly attempt: number;
  readonly requestId: string | undefined;
  readonly conversationId: string | undefined;
  /** The headers sent, through the allow-list redactor. */
  readonly headers: Readonly<Record<string, string>>;
}

/** Reported when an attempt got a response (before its status is judged). */
export interface ResponseEvent {
  readonly method: string;
  readonly url: string;
  readonly attempt: number;
  readonly requestId: string | undefined;
  readonly status: number;
  /** From sending to the end of the body, by the pipeline's clock. */
  readonly durationMs: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** Reported when a failed attempt is going to be sent again. */
export interface RetryEvent {
  readonly method: string;
  readonly url: string;
  /** The attempt that failed; the next one is `attempt + 1`. */
  readonly attempt: number;
  /** The wait before the next attempt. */
  readonly delayMs: number;
  /** Why the attempt failed. */
  readonly error: PartnerApisError;
}

/** The event hooks of a client. Each is optional; one that throws is logged and ignored. */
export interface PipelineEvents extends AuthEvents {
  onRequest?(event: RequestEvent): void;
  onResponse?(event: ResponseEvent): void;
  onRetry?(event: RetryEvent): void;
}

/** Where a client logs; `console` fits. Anything logged has gone through the redactor. */
export interface Logger {
  debug?(message: string, details?: Record<string, unknown>): void;
  info?(message: string, details?: Record<string, unknown>): void;
  warn?(message: string, details?: Record<string, unknown>): void;
  error?(message: string, details?: Record<string, unknown>): void;
}

/** The events and log lines of one client, built once at creation. */
export interface Observer {
  /** False when nobody listens to requests and responses, so their details are not built. */
  readonly detailed: boolean;
  readonly authEvents: AuthEvents;
  request(event: RequestEvent): void;
  response(event: ResponseEvent): void;
  retry(event: RetryEvent): void;
  warn(message: string, details?: Record<string, unknown>): void;
}

export function createObserver(
  events: PipelineEvents | undefined,
  logger: Logger | undefined,
): Observer {
  const hooks = events ?? {};
  const call = <E>(
    name: keyof PipelineEvents,
    hook: ((event: E) => void) | undefined,
    event: E,
  ) => {
    if (hook === undefined) return;
    try {
      hook.call(hooks, event);
    } catch (error) {
      logger?.error?.(`the ${name} hook threw; the request goes on`, {
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
    }
  };
  return {
    detailed:
      hooks.onRequest !== undefined ||
      hooks.onResponse !== undefined ||
      logger?.debug !== undefined,
    authEvents: {
      onTokenRefresh(event: TokenRefreshEvent) {
        logger?.info?.(`access token obtained (${event.reason})`, { ...event });
        call('onTokenRefresh', hooks.onTokenRefresh, event);
      },
      onKeyFailover(event: KeyFailoverEvent) {
        logger?.warn?.('primary subscription key refused; the secondary key is used from now on', {
          ...event,
        });
        call('onKeyFailover', hooks.onKeyFailover, event);
      },
    },
    request(event) {
      logger?.debug?.(`→ ${event.method} ${event.url} (attempt ${event.attempt})`, { ...event });
      call('onRequest', hooks.onRequest, event);
    },
    response(event) {
      logger?.debug?.(`← ${event.status} ${event.method} ${event.url} (${event.durationMs} ms)`, {
        ...event,
      });
      call('onResponse', hooks.onResponse, event);
    },
    retry(event) {
      logger?.warn?.(
        `${event.method} ${event.url} failed (attempt ${event.attempt}); retrying in ${Math.round(event.delayMs)} ms`,
        { error: event.error.toJSON() },
      );
      call('onRetry', hooks.onRetry, event);
    },
    warn(message, details) {
      logger?.warn?.(message, details);
    },
  };
}
