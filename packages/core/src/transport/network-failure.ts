import { ConnectionError, type FailedRequest } from '@partner-apis/errors';

/**
 * The network codes, each with its reason in words and whether it proves the request never
 * left (so that a write with it is safe to send again).
 */
const NETWORK_CODES: Readonly<Record<string, readonly [reason: string, notSent: boolean]>> = {
  ECONNREFUSED: ['connection refused', true],
  ENOTFOUND: ['host not found', true],
  EAI_AGAIN: ['host name lookup failed', true],
  ENETUNREACH: ['connection failed', true],
  EHOSTUNREACH: ['connection failed', true],
  EADDRNOTAVAIL: ['connection failed', true],
  UND_ERR_CONNECT_TIMEOUT: ['connect timeout', true],
  ECONNRESET: ['connection reset', false],
  UND_ERR_SOCKET: ['connection closed by the other side', false],
  ETIMEDOUT: ['connection timed out', false],
  ECONNABORTED: ['connection failed', false],
  EPIPE: ['connection failed', false],
  UND_ERR_CLOSED: ['connection failed', false],
  UND_ERR_HEADERS_TIMEOUT: ['connection failed', false],
  UND_ERR_BODY_TIMEOUT: ['connection failed', false],
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: ['connection failed', false],
};

/** Node's codes of a server certificate it does not trust, and of another failed handshake. */
const CERTIFICATE = /CERT|ALTNAME|SIGNATURE|HOSTNAME_MISMATCH/;
const TLS = /^ERR_SSL_|^EPROTO$/;
/** undici's refusal of a tunnel that the proxy answered with another status than 200. */
const TUNNEL_REFUSED = /^Proxy response \((\d+)\)/;

/** What an error of a failure's chain of causes may tell. */
interface Cause {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
}

/** The error of the chain of causes that says what failed, if one does. */
function causeOf(error: unknown, depth = 0): Cause | undefined {
  if (depth > 4 || typeof error !== 'object' || error === null) return undefined;
  const { code, name, message, cause, errors } = error as Cause & Record<string, unknown>;
  const said = String(code);
  if (
    said in NETWORK_CODES ||
    CERTIFICATE.test(said) ||
    TLS.test(said) ||
    TUNNEL_REFUSED.test(String(message)) ||
    // node:http's parser errors carry llhttp's `HPE_*` code; undici's, their class name only.
    said.startsWith('HPE_') ||
    name === 'HTTPParserError'
  ) {
    return error as Cause;
  }
  return causeOf(Array.isArray(errors) && errors.length > 0 ? errors[0] : cause, depth + 1);
}

/**
 * The host of a connection that failed when it is not the request's (another name, or another
 * port: an address cannot be compared with a name), which makes it a proxy.
 */
function proxyOf(cause: Cause, url: string): string | undefined {
  const { hostname, port, protocol } = new URL(url);
  if (typeof cause.hostname === 'string')
    return cause.hostname === hostname ? undefined : cause.hostname;
  const target = Number(port || (protocol === 'https:' ? 443 : 80));
  return typeof cause.port === 'number' && cause.port !== target
    ? `${String(cause.address)}:${cause.port}`
    : undefined;
}

/** The reason in words, and whether the request certainly never left. */
function explain(cause: Cause | undefined, url: string, phase: string): [string, boolean] {
  const code = String(cause?.code);
  const message = String(cause?.message);
  if (code.startsWith('HPE_') || cause?.name === 'HTTPParserError') {
    return ['the response is not valid HTTP', false];
  }
  if (phase === 'body') return ['the response body was cut off', false];
  const tunnel = TUNNEL_REFUSED.exec(message);
  if (tunnel !== null) return [`the proxy answered ${tunnel[1]} to the tunnel (CONNECT)`, true];
  if (CERTIFICATE.test(code)) {
    const hint = `if your company's proxy or authority signs it, give that authority's certificate with NODE_EXTRA_CA_CERTS=/path/to/ca.pem; otherwise check the address`;
    return [`the server's TLS certificate is not trusted: ${message}; ${hint}`, true];
  }
  if (TLS.test(code)) return [`the TLS handshake failed: ${message}`, true];
  const [reason, notSent] = NETWORK_CODES[code] ?? ['connection failed', false];
  const proxy = cause === undefined ? undefined : proxyOf(cause, url);
  return [proxy === undefined ? reason : `the proxy ${proxy}: ${reason}`, notSent];
}

/**
 * The `ConnectionError` for a failure of `fetch` or of reading a body, or `undefined` when the
 * failure is not a network one (a programming error, which is rethrown as it is). A connection
 * that failed to another host than the request's is named as the proxy's; a TLS failure names
 * the certificate problem.
 */
export function toConnectionError(
  error: unknown,
  request: FailedRequest,
  phase: 'send' | 'body',
): ConnectionError | undefined {
  const cause = causeOf(error);
  const fetchFailure =
    error instanceof TypeError &&
    (error.message === 'fetch failed' || error.message === 'terminated');
  if (cause === undefined && !fetchFailure) return undefined;
  const [reason, notSent] = explain(cause, request.url, phase);
  return new ConnectionError({
    request,
    systemCode: typeof cause?.code === 'string' ? cause.code : undefined,
    requestMayHaveBeenSent: !notSent,
    reason,
    cause: error,
  });
}
