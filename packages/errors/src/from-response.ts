import { MAX_RAW_BODY_LENGTH, type ApiError, type FailedRequest } from './api-error.js';
import { parseErrorBody, type ErrorBody, type ErrorSource } from './error-body.js';
import { redactUrl, scrubSecrets } from './redaction.js';
import { parseRetryAfter } from './retry-after.js';
import { errorClassForStatus } from './status-errors.js';

/**
 * Response headers read, in this order, for the correlation id when the body has none (a
 * gateway's HTML page, an empty body).
 */
export const CORRELATION_ID_HEADERS: readonly string[] = ['x-correlation-id', 'correlation-id'];

/** What `apiErrorFromResponse` builds an error from. */
export interface ResponseErrorInit {
  /** The response; its body must already have been read into `text`. */
  response: Pick<Response, 'status' | 'statusText' | 'headers'>;
  /** The whole response body as text (may be empty, HTML, truncated JSON, anything). */
  text: string;
  /** The request that failed. */
  request?: FailedRequest | undefined;
  /** The request's parsed JSON body, so each cause can show the value its `field` points at. */
  requestBody?: unknown;
  /**
   * Credential values sent with the request or known to the client: wherever the server echoed
   * one back (as is, JSON-escaped, percent- or form-encoded, or in Base64), it is replaced by
   * `[redacted]` before anything is kept (see `scrubSecrets`).
   */
  secrets?: readonly string[] | undefined;
  /** The current time in ms, for a `Retry-After` date; `Date.now()` by default. */
  now?: number | undefined;
}

function scrubSource(source: ErrorSource | undefined, secrets: readonly string[]) {
  if (source === undefined) return undefined;
  const scrubbed: ErrorSource = {};
  if (source.name !== undefined) scrubbed.name = scrubSecrets(source.name, secrets);
  if (source.layer !== undefined) scrubbed.layer = scrubSecrets(source.layer, secrets);
  return scrubbed;
}

/**
 * Scrubs the fields of a parsed body again: JSON decoding may have turned an escape that hid a
 * secret (a doubly escaped one, say) into a form the scrubber finds.
 */
function scrubBody(body: ErrorBody, secrets: readonly string[] | undefined): ErrorBody {
  if (secrets === undefined) return body;
  const scrubbed: ErrorBody = {
    code: scrubSecrets(body.code, secrets),
    message: scrubSecrets(body.message, secrets),
    correlationId: scrubSecrets(body.correlationId, secrets),
  };
  const source = scrubSource(body.source, secrets);
  if (source !== undefined) scrubbed.source = source;
  if (body.causes !== undefined) {
    scrubbed.causes = body.causes.map((cause) => {
      const copy = { ...cause, message: scrubSecrets(cause.message, secrets) };
      if (cause.code !== undefined) copy.code = scrubSecrets(cause.code, secrets);
      if (cause.field !== undefined) copy.field = scrubSecrets(cause.field, secrets);
      const causeSource = scrubSource(cause.source, secrets);
      if (causeSource !== undefined) copy.source = causeSource;
      return copy;
    });
  }
  return scrubbed;
}

function headerCorrelationId(headers: Pick<Headers, 'get'>): string | undefined {
  for (const name of CORRELATION_ID_HEADERS) {
    const value = headers.get(name)?.trim();
    if (value) return value;
  }
  return undefined;
}

function scrubCorrelationId(value: string | undefined, secrets: readonly string[] | undefined) {
  return value === undefined ? undefined : scrubSecrets(value, secrets);
}

/**
 * Builds the error for a non-2xx response: the subclass of its status (`errorClassForStatus`),
 * the common error body when the text is one, otherwise a clear message and the first
 * `MAX_RAW_BODY_LENGTH` characters in `rawBody`. The correlation id falls back to the
 * `x-correlation-id` / `correlation-id` response header; `Retry-After` becomes `retryAfterMs`.
 * Never throws.
 *
 * @example
 * const text = await response.text();
 * throw apiErrorFromResponse({
 *   response,
 *   text,
 *   request: { method: 'GET', url: request.url, requestId },
 * });
 */
export function apiErrorFromResponse(init: ResponseErrorInit): ApiError {
  const { response, request } = init;
  const text = scrubSecrets(init.text, init.secrets);
  const statusText = scrubSecrets(response.statusText, init.secrets);
  const ErrorClass = errorClassForStatus(response.status);
  const where = request ? ` from ${request.method} ${redactUrl(request.url)}` : '';
  const common = {
    status: response.status,
    request,
    requestBody: init.requestBody,
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), init.now ?? Date.now()),
  };
  const parsed = parseErrorBody(text);
  const body = parsed === undefined ? undefined : scrubBody(parsed, init.secrets);
  if (body !== undefined) {
    return new ErrorClass({
      ...common,
      code: body.code,
      message: `${body.message} (HTTP ${response.status}${where})`,
      correlationId:
        body.correlationId ||
        scrubCorrelationId(headerCorrelationId(response.headers), init.secrets),
      causes: body.causes,
      source: body.source,
    });
  }
  const contentType = response.headers.get('content-type') ?? 'no content type';
  const what =
    text.length === 0 ? 'an empty body' : `a body that is not an error body (${contentType})`;
  return new ErrorClass({
    ...common,
    code: 'unexpected_response',
    message: `HTTP ${response.status} ${statusText}`.trim() + `${where} with ${what}`,
    correlationId: scrubCorrelationId(headerCorrelationId(response.headers), init.secrets),
    rawBody: text.length === 0 ? undefined : text.slice(0, MAX_RAW_BODY_LENGTH),
  });
}
