import { parseErrorBody, type ErrorCause, type ErrorSource } from './error-body.js';

/** How much of a body that is not an error body is kept, so a large HTML page cannot bloat logs. */
export const MAX_RAW_BODY_LENGTH = 512;

/** What an `ApiError` knows about the request that failed. */
export interface FailedRequest {
  method: string;
  url: string;
  requestId?: string | undefined;
}

/** Everything an `ApiError` is made from. */
export interface ApiErrorInit {
  status: number;
  code: string;
  message: string;
  correlationId?: string | undefined;
  causes?: ErrorCause[] | undefined;
  source?: ErrorSource | undefined;
  request?: FailedRequest | undefined;
  rawBody?: string | undefined;
}

/** Drops the query string, where filters or identifiers of the caller's data may sit. */
function redactQuery(url: string): string {
  const index = url.indexOf('?');
  return index === -1 ? url : `${url.slice(0, index)}?[redacted]`;
}

/**
 * A response with a non-2xx status from a partner platform API.
 *
 * Built from the common error body (`code`, `message`, `correlationId`, `causes`); a body of any
 * other shape still gives an `ApiError`, with code `unexpected_response` and the start of the raw
 * text in `rawBody`.
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
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  /** HTTP status of the response. */
  readonly status: number;
  /** The error body's `code`, or `unexpected_response` when the body was not an error body. */
  readonly code: string;
  /** Tracing identifier to quote to the service team. */
  readonly correlationId: string | undefined;
  /** More detailed causes; `field` is a JSON Pointer (RFC 6901) into the request. */
  readonly causes: readonly ErrorCause[];
  /** Origin of the error, when the service named it. */
  readonly source: ErrorSource | undefined;
  /** HTTP method of the failed request. */
  readonly method: string | undefined;
  /** URL of the failed request, with the query string redacted. */
  readonly url: string | undefined;
  /** The `X-Z-Request-Id` sent with the failed request. */
  readonly requestId: string | undefined;
  /** The start of a body that was not an error body (at most `MAX_RAW_BODY_LENGTH` characters). */
  readonly rawBody: string | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.correlationId = init.correlationId || undefined;
    this.causes = init.causes ?? [];
    this.source = init.source;
    this.method = init.request?.method;
    this.url = init.request === undefined ? undefined : redactQuery(init.request.url);
    this.requestId = init.request?.requestId;
    this.rawBody = init.rawBody;
  }

  /**
   * Builds an `ApiError` from a response whose body has already been read as text.
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
    const where = request ? ` from ${request.method} ${redactQuery(request.url)}` : '';
    if (body !== undefined) {
      return new ApiError({
        status: response.status,
        code: body.code,
        message: `${body.message} (HTTP ${response.status}${where})`,
        correlationId: body.correlationId,
        causes: body.causes,
        source: body.source,
        request,
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
