import { ApiError, type ApiErrorInit } from './api-error.js';

/** 400: the request does not adhere to the specification; see `causes` for the fields. */
export class ValidationError extends ApiError {
  static override readonly kind: string = 'ValidationError';
}

/** 401: invalid credentials or token (`authentication_error`). */
export class AuthenticationError extends ApiError {
  static override readonly kind: string = 'AuthenticationError';
}

/** 404: the endpoint or resource does not exist. */
export class NotFoundError extends ApiError {
  static override readonly kind: string = 'NotFoundError';
}

/** 405: the method is known but not supported by the resource. */
export class MethodNotAllowedError extends ApiError {
  static override readonly kind: string = 'MethodNotAllowedError';
}

/** 406: the `Accept` header cannot be satisfied. */
export class NotAcceptableError extends ApiError {
  static override readonly kind: string = 'NotAcceptableError';
}

/** 412: precondition failed because of an invalid `If-Match`. */
export class PreconditionFailedError extends ApiError {
  static override readonly kind: string = 'PreconditionFailedError';
}

/** 415: the media format of the payload is not supported. */
export class UnsupportedMediaTypeError extends ApiError {
  static override readonly kind: string = 'UnsupportedMediaTypeError';
}

/** 428: the required `If-Match` header was not sent. */
export class PreconditionRequiredError extends ApiError {
  static override readonly kind: string = 'PreconditionRequiredError';
}

/** 429: too many requests; `retryAfterMs` tells how long the server asked to wait. */
export class RateLimitError extends ApiError {
  static override readonly kind: string = 'RateLimitError';
}

/** 500: internal server error. */
export class InternalServerError extends ApiError {
  static override readonly kind: string = 'InternalServerError';
}

/** 502: bad gateway; an invalid response from an upstream server. */
export class BadGatewayError extends ApiError {
  static override readonly kind: string = 'BadGatewayError';
}

/** 503: the service is overloaded or in maintenance. */
export class ServiceUnavailableError extends ApiError {
  static override readonly kind: string = 'ServiceUnavailableError';
}

/** The class of each status the upstream documents list; any other status is a plain `ApiError`. */
const classByStatus: ReadonlyMap<number, new (init: ApiErrorInit) => ApiError> = new Map([
  [400, ValidationError],
  [401, AuthenticationError],
  [404, NotFoundError],
  [405, MethodNotAllowedError],
  [406, NotAcceptableError],
  [412, PreconditionFailedError],
  [415, UnsupportedMediaTypeError],
  [428, PreconditionRequiredError],
  [429, RateLimitError],
  [500, InternalServerError],
  [502, BadGatewayError],
  [503, ServiceUnavailableError],
]);

/**
 * The error class thrown for an HTTP status: a subclass for each status the upstream documents
 * list, `ApiError` itself for any other.
 *
 * @example
 * errorClassForStatus(503) === ServiceUnavailableError; // true
 * errorClassForStatus(418) === ApiError;                // true
 */
export function errorClassForStatus(status: number): new (init: ApiErrorInit) => ApiError {
  return classByStatus.get(status) ?? ApiError;
}
