/**
 * A `fetch` that sends through the proxy of `HTTPS_PROXY` / `HTTP_PROXY` (either case), except
 * for the hosts of `NO_PROXY`, as curl and most command-line tools do; `undefined` when no proxy
 * is set, so the clients keep their own transport.
 */
export async function proxyFetch(
  env: NodeJS.ProcessEnv,
): Promise<typeof globalThis.fetch | undefined> {
  const httpProxy = env.HTTP_PROXY || env.http_proxy || '';
  const httpsProxy = env.HTTPS_PROXY || env.https_proxy || '';
  if (httpProxy === '' && httpsProxy === '') return undefined;
  // Loaded only when a proxy is set: most runs never pay for undici.
  const { EnvHttpProxyAgent, fetch } = await import('undici');
  // Every value given, so that undici reads nothing of the process's own environment.
  const dispatcher = new EnvHttpProxyAgent({
    httpProxy,
    httpsProxy,
    noProxy: env.NO_PROXY || env.no_proxy || '',
  });
  return ((input: string, init: RequestInit) =>
    fetch(input, { ...(init as object), dispatcher })) as unknown as typeof globalThis.fetch;
}
