import { MAX_RAW_BODY_LENGTH, type ApiError, type FailedRequest } from './api-error.js';
import { parseErrorBody, type ErrorBody, type ErrorSource } from './error-body.js';
import { redactUrl, scrubSecrets } from './redaction.js';
import { parseRetryAfter } from './retry-after.js';
import { ValidationError, errorClassForStatus } from './status-errors.js';

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
  /**
   * True when the body passed the client's size limit and reading stopped there: `text` is
   * only its start. The error keeps its status class, and its message says the body was cut.
   */
  truncated?: boolean | undefined;
  /** The size limit the body passed, in bytes, for the message of a `truncated` body. */
  maxResponseBytes?: number | undefined;
  /** True when the request was a write the server may have carried out (see `ApiError`). */
  mayHaveTakenEffect?: boolean | undefined;
}

/** How long a cause's message may be in the error's own message; `causes` has all of it. */
const MAX_CAUSE_IN_MESSAGE = 200;

/**
 * The first cause, as the error's message shows it: `(/policyLines: must NOT have fewer than 1
 * items)`, and how many more there are; empty when there are none.
 */
function firstCauseNote(causes: ErrorBody['causes']): string {
  const first = causes?.[0];
  if (first === undefined) return '';
  const text =
    first.message.length > MAX_CAUSE_IN_MESSAGE
      ? `${first.message.slice(0, MAX_CAUSE_IN_MESSAGE)}…`
      : first.message;
  const where = first.field === undefined || first.field === '' ? '' : `${first.field}: `;
  const more = (causes?.length ?? 1) - 1;
  const rest = more === 0 ? '' : `; ${more} more in causes`;
  return ` (${where}${text}${rest})`;
}

/** What the message says of a body cut at the size limit: `larger than … (N bytes)`. */
function overLimit(init: ResponseErrorInit): string {
  const bytes = init.maxResponseBytes === undefined ? '' : ` (${init.maxResponseBytes} bytes)`;
  return `larger than maxResponseBytes${bytes}`;
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
 * `MAX_RAW_BODY_LENGTH` characters in `rawBody`. A `ValidationError`'s message shows its first
 * cause, with its `field`. The correlation id falls back to the `x-correlation-id` / `correlation-id` response
 * header; `Retry-After` becomes `retryAfterMs`. A body cut at the size limit (`truncated`) keeps
 * the status class, with code `response_too_large` unless its start is a whole error body.
 * Never throws.
 *
 * @example
 * const text = await response.text();
 * throw apiErrorFromResponse({
 *   response,
 *   text,
 *   request: { method: 'GET', url: request.url, requestId },
 * });
 *
 * // A 500 whose body passed the limit: still an InternalServerError, saying it was cut.
 * apiErrorFromResponse({ response, text: start, truncated: true, maxResponseBytes: 1_000_000 });
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
    mayHaveTakenEffect: init.mayHaveTakenEffect,
  };
  const cut = init.truncated === true ? `; the body was ${overLimit(init)}, cut there` : '';
  const parsed = parseErrorBody(text);
  const body = parsed === undefined ? undefined : scrubBody(parsed, init.secrets);
  if (body !== undefined) {
    // A 400's message says what was wrong; the other statuses' causes rarely add to it.
    const causeNote = ErrorClass === ValidationError ? firstCauseNote(body.causes) : '';
    return new ErrorClass({
      ...common,
      code: body.code,
      message: `${body.message}${causeNote} (HTTP ${response.status}${where}${cut})`,
      correlationId:
        body.correlationId ||
        scrubCorrelationId(headerCorrelationId(response.headers), init.secrets),
      causes: body.causes,
      source: body.source,
      body,
    });
  }
  const contentType = response.headers.get('content-type') ?? 'no content type';
  const what =
    init.truncated === true
      ? `a body (${contentType}) ${overLimit(init)}, cut there`
      : text.length === 0
        ? 'an empty body'
        : `a body that is not an error body (${contentType})`;
  return new ErrorClass({
    ...common,
    code: init.truncated === true ? 'response_too_large' : 'unexpected_response',
    message: `HTTP ${response.status} ${statusText}`.trim() + `${where} with ${what}`,
    correlationId: scrubCorrelationId(headerCorrelationId(response.headers), init.secrets),
    rawBody: text.length === 0 ? undefined : text.slice(0, MAX_RAW_BODY_LENGTH),
  });
}
