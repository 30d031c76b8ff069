export { ApiError, MAX_RAW_BODY_LENGTH } from './api-error.js';
export type { ApiErrorInit, FailedRequest } from './api-error.js';
export { parseErrorBody } from './error-body.js';
export type { ErrorBody, ErrorCause, ErrorSource } from './error-body.js';
