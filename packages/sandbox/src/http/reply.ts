import { randomUUID } from 'node:crypto';
import type { ValidationCause } from '../spec/validators.js';

/** A response before it is written: the body is final text or bytes, so it is serialised once. */
export interface Reply {
  status: number;
  body: string | Uint8Array;
  contentType: string;
  headers?: Record<string, string>;
  /**
   * Sent by the gateway in front of the service (a tier's 429), which no spec describes; it is
   * not checked against the service's spec.
   */
  fromGateway?: boolean;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON reply from text that already is JSON. */
export function jsonText(status: number, body: string, headers?: Record<string, string>): Reply {
  return headers
    ? { status, body, contentType: JSON_TYPE, headers }
    : { status, body, contentType: JSON_TYPE };
}

/** A JSON reply from a value. */
export function json(status: number, value: unknown, headers?: Record<string, string>): Reply {
  return jsonText(status, JSON.stringify(value), headers);
}

/** An error cause as the common error body carries it. */
export type ErrorCause = ValidationCause;

/**
 * A reply with the common error body (`code`, `message`, `correlationId`, `causes`).
 */
export function errorReply(
  status: number,
  code: string,
  message: string,
  options: { causes?: readonly ErrorCause[]; headers?: Record<string, string> } = {},
): Reply {
  const body: Record<string, unknown> = { code, message, correlationId: randomUUID() };
  if (options.causes && options.causes.length > 0) body.causes = options.causes;
  return json(status, body, options.headers);
}

/** A reply with an RFC 6749 §5.2 error body, as the token endpoint answers. */
export function oauthErrorReply(
  status: number,
  error: string,
  description: string,
  headers?: Record<string, string>,
): Reply {
  return json(
    status,
    { error, error_description: description },
    { 'cache-control': 'no-store', pragma: 'no-cache', ...headers },
  );
}

/** The common error code for a status the sandbox sends on its own. */
export function codeForStatus(status: number): string {
  switch (status) {
    case 400:
      return 'data_validation';
    case 401:
      return 'authentication_error';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 406:
      return 'not_acceptable';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'too_many_requests';
    case 501:
      return 'not_implemented';
    default:
      return status >= 500 ? 'internal_server_error' : 'data_validation';
  }
}
