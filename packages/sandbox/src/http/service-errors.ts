import type { ServiceDefinition } from '../services/service.js';
import {
  codeForStatus,
  errorReply,
  oauthErrorReply,
  type ErrorCause,
  type Reply,
} from './reply.js';

/** The RFC 6749 §5.2 error for a refused token request, from the causes of its validation. */
function oauthErrorFor(causes: readonly ErrorCause[]): string {
  for (const cause of causes) {
    if (cause.code === 'required') return 'invalid_request';
    if (cause.field.startsWith('/grant_type')) return 'unsupported_grant_type';
    if (cause.field.startsWith('/scope')) return 'invalid_scope';
  }
  return 'invalid_request';
}

/**
 * An error reply in the service's own style: the common error body, or an RFC 6749 body for
 * the token endpoint.
 */
export function serviceError(
  service: ServiceDefinition | undefined,
  status: number,
  message: string,
  options: { causes?: readonly ErrorCause[]; headers?: Record<string, string> } = {},
): Reply {
  if (service?.errorStyle !== 'oauth') {
    return errorReply(status, codeForStatus(status), message, options);
  }
  const causes = options.causes ?? [];
  const detail =
    causes.length > 0 ? `${message} ${causes.map((c) => c.message).join('; ')}` : message;
  const error =
    status === 401
      ? 'invalid_client'
      : status === 503
        ? 'temporarily_unavailable'
        : status >= 500
          ? 'server_error'
          : oauthErrorFor(causes);
  return oauthErrorReply(status, error, detail, options.headers);
}
