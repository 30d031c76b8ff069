export { ERROR_BRAND, PartnerApisError, isPartnerApisError } from './partner-apis-error.js';
export { ApiError, MAX_RAW_BODY_LENGTH, isApiError } from './api-error.js';
export type { ApiErrorCause, ApiErrorInit, FailedRequest } from './api-error.js';
export {
  AuthenticationError,
  BadGatewayError,
  InternalServerError,
  MethodNotAllowedError,
  NotAcceptableError,
  NotFoundError,
  PreconditionFailedError,
  PreconditionRequiredError,
  RateLimitError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
  ValidationError,
  errorClassForStatus,
} from './status-errors.js';
export { CORRELATION_ID_HEADERS, apiErrorFromResponse } from './from-response.js';
export type { ResponseErrorInit } from './from-response.js';
export { ConnectionError, TimeoutError } from './transport-errors.js';
export type { ConnectionErrorInit, TimeoutErrorInit, TimeoutScope } from './transport-errors.js';
export { TokenError } from './token-error.js';
export type { TokenErrorInit } from './token-error.js';
export { ConfigurationError, InvalidArgumentError } from './usage-errors.js';
export { parseErrorBody } from './error-body.js';
export type { ErrorBody, ErrorCause, ErrorSource } from './error-body.js';
export { formatJsonPointer, parseJsonPointer, valueAt } from './json-pointer.js';
export { REDACTED, redactUrl, scrubSecrets } from './redaction.js';
export { parseRetryAfter } from './retry-after.js';
export type { components } from './generated/openapi.js';
