/**
 * The errors a call can throw, and the guards that tell them apart: what each service package
 * re-exports, so that its users need no second import. The rest of `@partner-apis/errors` (the
 * body and pointer parsers, redaction, `apiErrorFromResponse`) is for the packages that build
 * clients.
 *
 * @example
 * import { NotFoundError, isApiError } from '@partner-apis/liability';
 */
export { PartnerApisError, isPartnerApisError } from './partner-apis-error.js';
export { ApiError, isApiError } from './api-error.js';
export type { ApiErrorCause, FailedRequest } from './api-error.js';
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
} from './status-errors.js';
export { ConnectionError, TimeoutError } from './transport-errors.js';
export type { TimeoutScope } from './transport-errors.js';
export { TokenError } from './token-error.js';
export { ConfigurationError, InvalidArgumentError } from './usage-errors.js';
