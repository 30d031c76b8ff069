import { ConfigurationError } from '@partner-apis/errors';

/** A page of a web browser: a window with a document. */
function inBrowser(): boolean {
  const { window, navigator } = globalThis as {
    window?: { document?: unknown };
    navigator?: unknown;
  };
  return window?.document !== undefined && navigator !== undefined;
}

/**
 * Refuses a client holding a client secret in a browser page unless the caller opts in with
 * `dangerouslyAllowBrowser`: the secret would be readable by anyone who opens the page.
 *
 * @example
 * refuseSecretInBrowser(options, credentials);
 */
export function refuseSecretInBrowser(
  options: { readonly dangerouslyAllowBrowser?: boolean | undefined },
  credentials: Readonly<Record<string, unknown>>,
): void {
  if (credentials.clientSecret === undefined || options.dangerouslyAllowBrowser === true) return;
  if (!inBrowser()) return;
  throw new ConfigurationError(
    'credentials.clientSecret',
    'would be readable by anyone who opens this browser page: call the API from a server, or set dangerouslyAllowBrowser: true if no one else ever opens the page',
  );
}
