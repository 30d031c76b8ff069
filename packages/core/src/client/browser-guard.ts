import { ConfigurationError } from '@partner-apis/errors';

/**
 * Refuses a client holding a client secret in a browser page (a window with a document) unless
 * the caller opts in with `dangerouslyAllowBrowser`: anyone who opens the page can read it.
 */
export function refuseSecretInBrowser(
  options: { readonly dangerouslyAllowBrowser?: boolean | undefined },
  credentials: Readonly<Record<string, unknown>>,
): void {
  const { window, navigator } = globalThis as {
    window?: { document?: unknown };
    navigator?: unknown;
  };
  if (credentials.clientSecret === undefined || options.dangerouslyAllowBrowser === true) return;
  if (window?.document === undefined || navigator === undefined) return;
  throw new ConfigurationError(
    'credentials.clientSecret',
    'would be readable by anyone who opens this browser page: call the API from a server, or set dangerouslyAllowBrowser: true if no one else ever opens the page',
  );
}
