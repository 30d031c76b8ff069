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

/** The event hooks of a client. Each is optional; one that throws is ignored (see `createObserver`). */
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
  /**
   * Tells a warning once per message: to the logger's `warn`, with `{ code }` as its details,
   * else as a process warning with that code.
   */
  warn(message: string, code: WarningCode): void;
}

/** The code of each kind of warning a client gives, so a logger can tell them apart. */
export type WarningCode =
  | 'PARTNER_APIS_ASSUMPTION'
  | 'PARTNER_APIS_UNKNOWN_OPTION'
  | 'PARTNER_APIS_RATE_LIMIT'
  | 'PARTNER_APIS_SECRET_EXPIRY';

/** How many distinct warnings one client tells; a loop cannot fill memory with them. */
const MAX_WARNINGS = 100;

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Runs observers (hooks and logger methods) so that none can change a call's outcome: whatever
 * one throws is dropped. The first failure is reported, through the logger's `error` when a
 * hook failed and the logger has one, else as a process warning; later ones are not.
 */
function guard(logger: Logger | undefined): (name: string, run: () => void) => void {
  let reported = false;
  const report = (name: string, error: unknown) => {
    if (reported) return;
    reported = true;
    const what = describeError(error);
    if (name !== 'logger' && logger?.error !== undefined) {
      try {
        logger.error(`the ${name} hook threw; the request goes on`, { error: what });
        return;
      } catch {
        // The logger failed too: fall back to the process warning.
      }
    }
    globalThis.process?.emitWarning?.(
      `The ${name} of a partner-apis client threw (${what}); calls go on, and later failures ` +
        'of its hooks and logger are not reported.',
      { code: 'PARTNER_APIS_OBSERVER_THREW' },
    );
  };
  return (name, run) => {
    try {
      run();
    } catch (error) {
      report(name, error);
    }
  };
}

/** Builds the events and log lines of one client; no hook or logger can fail a call. */
export function createObserver(
  events: PipelineEvents | undefined,
  logger: Logger | undefined,
): Observer {
  const hooks = events ?? {};
  const safely = guard(logger);
  const log = (level: keyof Logger, message: string, details?: Record<string, unknown>) => {
    const method = logger?.[level];
    if (method !== undefined) safely('logger', () => method.call(logger, message, details));
  };
  const call = <E>(name: string, hook: ((event: E) => void) | undefined, event: E) => {
    if (hook !== undefined) safely(name, () => hook.call(hooks, event));
  };
  const told = new Set<string>();
  return {
    detailed:
      hooks.onRequest !== undefined ||
      hooks.onResponse !== undefined ||
      logger?.debug !== undefined,
    authEvents: {
      onTokenRefresh(event: TokenRefreshEvent) {
        log('info', `access token obtained (${event.reason})`, { ...event });
        call('onTokenRefresh', hooks.onTokenRefresh, event);
      },
      onKeyFailover(event: KeyFailoverEvent) {
        log('warn', 'primary subscription key refused; the secondary key is used from now on', {
          ...event,
        });
        call('onKeyFailover', hooks.onKeyFailover, event);
      },
    },
    request(event) {
      log('debug', `→ ${event.method} ${event.url} (attempt ${event.attempt})`, { ...event });
      call('onRequest', hooks.onRequest, event);
    },
    response(event) {
      log('debug', `← ${event.status} ${event.method} ${event.url} (${event.durationMs} ms)`, {
        ...event,
      });
      call('onResponse', hooks.onResponse, event);
    },
    retry(event) {
      log(
        'warn',
        `${event.method} ${event.url} failed (attempt ${event.attempt}); retrying in ${Math.round(event.delayMs)} ms`,
        { error: event.error.toJSON() },
      );
      call('onRetry', hooks.onRetry, event);
    },
    warn(message, code) {
      if (told.has(message) || told.size >= MAX_WARNINGS) return;
      told.add(message);
      if (logger?.warn !== undefined) log('warn', message, { code });
      else globalThis.process?.emitWarning?.(message, { code });
    },
  };
}
