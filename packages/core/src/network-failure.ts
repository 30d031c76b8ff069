import { ConnectionError, type FailedRequest } from '@partner-apis/errors';

/** Codes that prove the request never left: a write with one of them is safe to send again. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  UND_ERR_SOCKET: 'connection closed by the other side',
  UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
  ETIMEDOUT: 'connection timed out',
};

const NETWORK_CODES = new Set([
  ...NOT_SENT,
  ...Object.keys(REASONS),
  'ECONNABORTED',
  'EPIPE',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

function codeOf(error: unknown, depth = 0): string | undefined {
  if (depth > 4 || typeof error !== 'object' || error === null) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
  if (Array.isArray(errors) && errors.length > 0) return codeOf(errors[0], depth + 1);
  return codeOf(cause, depth + 1);
}

/**
 * The `ConnectionError` for a failure of `fetch` or of reading a body, or `undefined` when the
 * failure is not a network one (a programming error, which is rethrown as it is).
 */
export function toConnectionError(
  error: unknown,
  request: FailedRequest,
  phase: 'send' | 'body',
): ConnectionError | undefined {
  const code = codeOf(error);
  const fetchFailure =
    error instanceof TypeError &&
    (error.message === 'fetch failed' || error.message === 'terminated');
  if (code === undefined && !fetchFailure) return undefined;
  const reason =
    phase === 'body'
      ? 'the response body was cut off'
      : ((code === undefined ? undefined : REASONS[code]) ?? 'connection failed');
  return new ConnectionError({
    request,
    systemCode: code,
    requestMayHaveBeenSent: phase === 'body' || code === undefined || !NOT_SENT.has(code),
    reason,
    cause: error,
  });
}
