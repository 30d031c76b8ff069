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

/** What a failure's chain of causes says: its network code, and whether the answer was not HTTP. */
interface Diagnosis {
  code: string | undefined;
  /** The server answered bytes no HTTP parser accepts (a bad status line or header byte). */
  unparsable: boolean;
}

function diagnose(error: unknown, depth = 0): Diagnosis {
  if (depth > 4 || typeof error !== 'object' || error === null) {
    return { code: undefined, unparsable: false };
  }
  const { code, cause, errors, name } = error as {
    code?: unknown;
    cause?: unknown;
    errors?: unknown;
    name?: unknown;
  };
  // node:http's parser errors carry llhttp's `HPE_*` code; undici's, their class name only.
  if (typeof code === 'string' && code.startsWith('HPE_')) return { code, unparsable: true };
  if (name === 'HTTPParserError') return { code: undefined, unparsable: true };
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return { code, unparsable: false };
  if (Array.isArray(errors) && errors.length > 0) return diagnose(errors[0], depth + 1);
  return diagnose(cause, depth + 1);
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
  const { code, unparsable } = diagnose(error);
  const fetchFailure =
    error instanceof TypeError &&
    (error.message === 'fetch failed' || error.message === 'terminated');
  if (code === undefined && !unparsable && !fetchFailure) return undefined;
  const reason = unparsable
    ? 'the response is not valid HTTP'
    : phase === 'body'
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
