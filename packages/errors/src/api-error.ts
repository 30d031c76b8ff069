import { parseErrorBody, type ErrorBody, type ErrorCause, type ErrorSource } from './error-body.js';
import { parseJsonPointer, valueAt } from './json-pointer.js';
import { PartnerApisError } from './partner-apis-error.js';
import { redactUrl } from './redaction.js';

/** How much of a body that is not an error body is kept, so a large HTML page cannot bloat logs. */
export const MAX_RAW_BODY_LENGTH = 512;

/** What an error knows about the request that failed. */
export interface FailedRequest {
  method: string;
  /** The full URL; errors keep it only with the query redacted. */
  url: string;
  /** The `X-Z-Request-Id` sent with the attempt that failed. */
  requestId?: string | undefined;
  /** The `X-Z-Conversation-Id` sent, if any. */
  conversationId?: string | undefined;
}

/** One cause of an `ApiError`, with its `field` pointer parsed. */
export interface ApiErrorCause extends ErrorCause {
  /** The reference tokens of `field` (RFC 6901), when `field` is a valid JSON Pointer. */
  readonly pointer?: readonly string[];
  /**
   * The value `field` points at in the request body, when the body was JSON and known. Kept
   * off `toJSON` and `util.inspect`, since it is the caller's data.
   */
  readonly value?: unknown;
}

/** Everything an `ApiError` is made from. */
export interface ApiErrorInit {
  status: number;
  code: string;
  message: string;
  correlationId?: string | undefined;
  causes?: readonly ErrorCause[] | undefined;
  source?: ErrorSource | undefined;
  request?: FailedRequest | undefined;
  /** The common error body the message was made from, as the service sent it. */
  body?: ErrorBody | undefined;
  rawBody?: string | undefined;
  /** How long the server asked to wait before trying again (`Retry-After`), in ms. */
  retryAfterMs?: number | undefined;
  /** The parsed JSON body of the request, so causes can show the value they point at. */
  requestBody?: unknown;
  /** True when the failed request was a write the server may have carried out. */
  mayHaveTakenEffect?: boolean | undefined;
}

function enrichCause(cause: ErrorCause, init: ApiErrorInit): ApiErrorCause {
  const pointer = cause.field === undefined ? undefined : parseJsonPointer(cause.field);
  if (pointer === undefined) return { ...cause };
  if (!('requestBody' in init) || init.requestBody === undefined) return { ...cause, pointer };
  return { ...cause, pointer, value: valueAt(init.requestBody, pointer) };
}

/**
 * A response with a non-2xx status from a partner platform API.
 *
 * Built from the common error body (`code`, `message`, `correlationId`, `causes`); a body of any
 * other shape still gives an `ApiError`, with code `unexpected_response` and the start of the raw
 * text in `rawBody`. The pipeline throws the subclass of the status (`ValidationError`,
 * `AuthenticationError`, …; see `errorClassForStatus`).
 *
 * @example
 * try {
 *   await client.getApprovals('100234');
 * } catch (error) {
 *   if (error instanceof ApiError && error.code === 'authentication_error') {
 *     console.error(`Check the credentials (correlation id ${error.correlationId})`);
 *   }
 * }
 */
export class ApiError extends PartnerApisError {
  static override readonly kind: string = 'ApiError';
  /** HTTP status of the response. */
  readonly status: number;
  /** The error body's `code`, or `unexpected_response` when the body was not an error body. */
  readonly code: string;
  /** Tracing identifier to quote to the service team (from the body, else a response header). */
  readonly correlationId: string | undefined;
  /** More detailed causes; `field` is a JSON Pointer (RFC 6901) into the request. */
  readonly causes: readonly ApiErrorCause[];
  /** Origin of the error, when the service named it. */
  readonly source: ErrorSource | undefined;
  /** HTTP method of the failed request. */
  readonly method: string | undefined;
  /** URL of the failed request, with user info, query string and fragment redacted. */
  readonly url: string | undefined;
  /** The `X-Z-Request-Id` sent with the failed attempt. */
  readonly requestId: string | undefined;
  /** The `X-Z-Conversation-Id` sent with the failed request, if any. */
  readonly conversationId: string | undefined;
  /** The start of a body that was not an error body (at most `MAX_RAW_BODY_LENGTH` characters). */
  readonly rawBody: string | undefined;
  /**
   * The common error body as the service sent it (secrets scrubbed), when the answer was one;
   * `message` adds the status and the request to its message.
   */
  readonly body: ErrorBody | undefined;
  /** The wait the server asked for in `Retry-After`, in ms; `undefined` when it gave none. */
  readonly retryAfterMs: number | undefined;
  /** True when the request was a write (POST, PUT, PATCH, DELETE) the server may have carried out. */
  readonly mayHaveTakenEffect: boolean;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.correlationId = init.correlationId || undefined;
    this.causes = (init.causes ?? []).map((cause) => enrichCause(cause, init));
    this.source = init.source;
    this.method = init.request?.method;
    this.url = init.request === undefined ? undefined : redactUrl(init.request.url);
    this.requestId = init.request?.requestId;
    this.conversationId = init.request?.conversationId;
    this.rawBody = init.rawBody;
    this.body = init.body;
    this.retryAfterMs = init.retryAfterMs;
    this.mayHaveTakenEffect = init.mayHaveTakenEffect === true;
  }

  protected override details(): Record<string, unknown> {
    return {
      status: this.status,
      code: this.code,
      correlationId: this.correlationId,
      requestId: this.requestId,
      conversationId: this.conversationId,
      method: this.method,
      url: this.url,
      causes: this.causes.map(({ value: _value, ...cause }) => cause),
      source: this.source,
      retryAfterMs: this.retryAfterMs,
      rawBody: this.rawBody,
      mayHaveTakenEffect: this.mayHaveTakenEffect,
    };
  }

  /**
   * Builds a plain `ApiError` (never a status subclass) from a response whose body has already
   * been read as text. Kept for clients built on version 0.1; `apiErrorFromResponse` picks the
   * status subclass, reads `Retry-After` and the correlation id header, and scrubs secrets.
   *
   * @example
   * const error = ApiError.fromResponseText(response, await response.text(), { method: 'GET', url });
   */
  static fromResponseText(
    response: Pick<Response, 'status' | 'statusText' | 'headers'>,
    text: string,
    request?: FailedRequest,
  ): ApiError {
    const body = parseErrorBody(text);
    const where = request ? ` from ${request.method} ${redactUrl(request.url)}` : '';
    if (body !== undefined) {
      return new ApiError({
        status: response.status,
        code: body.code,
        message: `${body.message} (HTTP ${response.status}${where})`,
        correlationId: body.correlationId,
        causes: body.causes,
        source: body.source,
        request,
        body,
      });
    }
    const contentType = response.headers.get('content-type') ?? 'no content type';
    const what =
      text.length === 0 ? 'an empty body' : `a body that is not an error body (${contentType})`;
    return new ApiError({
      status: response.status,
      code: 'unexpected_response',
      message: `HTTP ${response.status} ${response.statusText}`.trim() + `${where} with ${what}`,
      request,
      rawBody: text.length === 0 ? undefined : text.slice(0, MAX_RAW_BODY_LENGTH),
    });
  }
}

/**
 * True when `value` is an `ApiError` (of any status subclass), from any copy of the package.
 *
 * @example
 * if (isApiError(error) && error.status === 404) return undefined;
 */
export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
