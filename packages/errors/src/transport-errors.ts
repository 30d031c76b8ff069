import type { FailedRequest } from './api-error.js';
import { PartnerApisError } from './partner-apis-error.js';
import { redactUrl } from './redaction.js';

function describe(request: FailedRequest | undefined): string {
  return request === undefined ? 'the request' : `${request.method} ${redactUrl(request.url)}`;
}

/** Methods whose request can change something on the server. */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A write (or a request of unknown method) that may have reached the server. */
function mayHaveTakenEffect(request: FailedRequest | undefined, sent: boolean): boolean {
  return sent && (request === undefined || WRITE_METHODS.has(request.method.toUpperCase()));
}

/** Everything a `ConnectionError` is made from. */
export interface ConnectionErrorInit {
  /** The request whose connection failed. */
  request?: FailedRequest | undefined;
  /** The system or client error code, e.g. `ECONNREFUSED`, `ECONNRESET`, `UND_ERR_SOCKET`. */
  systemCode?: string | undefined;
  /** False only when the request certainly never reached the server (e.g. connection refused). */
  requestMayHaveBeenSent: boolean;
  /** What went wrong, in a few words; `connection failed` by default. */
  reason?: string | undefined;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * A request that got no complete response: connection refused or reset, DNS failure, a
 * response that is not valid HTTP, or a response body cut off. `requestMayHaveBeenSent` tells
 * whether the request may have reached the server; `mayHaveTakenEffect`, whether a write may
 * have been carried out, as on `ApiError`.
 *
 * @example
 * if (error instanceof ConnectionError && !error.mayHaveTakenEffect) await sendAgain();
 */
export class ConnectionError extends PartnerApisError {
  static override readonly kind: string = 'ConnectionError';
  readonly method: string | undefined;
  /** URL of the request, with user info, query string and fragment redacted. */
  readonly url: string | undefined;
  readonly requestId: string | undefined;
  readonly conversationId: string | undefined;
  readonly systemCode: string | undefined;
  readonly requestMayHaveBeenSent: boolean;
  /**
   * True when the request was a write (POST, PUT, PATCH, DELETE, or of unknown method) that may
   * have reached the server, which may then have carried it out.
   */
  readonly mayHaveTakenEffect: boolean;

  constructor(init: ConnectionErrorInit) {
    const code = init.systemCode === undefined ? '' : ` (${init.systemCode})`;
    const effect = mayHaveTakenEffect(init.request, init.requestMayHaveBeenSent);
    const note = effect
      ? '; the request may have reached the server, so it may have taken effect'
      : '';
    super(`${describe(init.request)}: ${init.reason ?? 'connection failed'}${code}${note}`, {
      cause: init.cause,
    });
    this.method = init.request?.method;
    this.url = init.request === undefined ? undefined : redactUrl(init.request.url);
    this.requestId = init.request?.requestId;
    this.conversationId = init.request?.conversationId;
    this.systemCode = init.systemCode;
    this.requestMayHaveBeenSent = init.requestMayHaveBeenSent;
    this.mayHaveTakenEffect = effect;
  }

  protected override details(): Record<string, unknown> {
    return {
      method: this.method,
      url: this.url,
      requestId: this.requestId,
      conversationId: this.conversationId,
      systemCode: this.systemCode,
      requestMayHaveBeenSent: this.requestMayHaveBeenSent,
      mayHaveTakenEffect: this.mayHaveTakenEffect,
    };
  }
}

/** Which limit a `TimeoutError` hit. */
export type TimeoutScope = 'attempt' | 'total';

/** Everything a `TimeoutError` is made from. */
export interface TimeoutErrorInit {
  request?: FailedRequest | undefined;
  /** The limit that was exceeded, in ms. */
  timeoutMs: number;
  /** `attempt`: one attempt took too long; `total`: the whole call, retries included. */
  scope: TimeoutScope;
  /** False only when the request certainly never left (it waited for a token or a slot). */
  requestMayHaveBeenSent?: boolean | undefined;
}

/**
 * A request that did not complete in time: no headers, or a body that stalled, within the
 * per-attempt timeout, or no success within the overall deadline. `mayHaveTakenEffect` tells
 * whether a write may have been carried out all the same.
 *
 * @example
 * if (error instanceof TimeoutError && error.scope === 'total') console.warn('gave up');
 */
export class TimeoutError extends PartnerApisError {
  static override readonly kind: string = 'TimeoutError';
  readonly method: string | undefined;
  /** URL of the request, with user info, query string and fragment redacted. */
  readonly url: string | undefined;
  readonly requestId: string | undefined;
  readonly conversationId: string | undefined;
  readonly timeoutMs: number;
  readonly scope: TimeoutScope;
  /**
   * True when the request was a write (POST, PUT, PATCH, DELETE) that may have reached the
   * server before the time ran out, which may then have carried it out.
   */
  readonly mayHaveTakenEffect: boolean;

  constructor(init: TimeoutErrorInit) {
    const limit = init.scope === 'attempt' ? 'per-attempt timeout' : 'overall deadline';
    super(`${describe(init.request)}: no complete response within ${init.timeoutMs} ms (${limit})`);
    this.method = init.request?.method;
    this.url = init.request === undefined ? undefined : redactUrl(init.request.url);
    this.requestId = init.request?.requestId;
    this.conversationId = init.request?.conversationId;
    this.timeoutMs = init.timeoutMs;
    this.scope = init.scope;
    this.mayHaveTakenEffect = mayHaveTakenEffect(init.request, init.requestMayHaveBeenSent ?? true);
  }

  protected override details(): Record<string, unknown> {
    return {
      method: this.method,
      url: this.url,
      requestId: this.requestId,
      conversationId: this.conversationId,
      timeoutMs: this.timeoutMs,
      scope: this.scope,
      mayHaveTakenEffect: this.mayHaveTakenEffect,
    };
  }
}
