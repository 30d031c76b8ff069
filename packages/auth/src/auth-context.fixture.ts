import type { AuthContext } from './auth-scheme.js';

/**
 * The context a pipeline would hand a scheme, with plain `fetch` as its way to the network: what
 * the scheme's tests need of a pipeline without depending on one.
 */
export function fetchAuthContext(
  now: () => number,
  events: AuthContext['events'] = {},
): AuthContext {
  return {
    signal: new AbortController().signal,
    fetch: (input, init) => fetch(input, init),
    send: async ({ method, url, headers, query = [], body }) => {
      const pairs = new URLSearchParams(query.map(([n, v]): [string, string] => [n, v])).toString();
      const sent = pairs === '' ? url : `${url}?${pairs}`;
      const response = await fetch(sent, { method, headers, body });
      const { status, statusText } = response;
      return { status, statusText, headers: response.headers, text: await response.text() };
    },
    now,
    events,
  };
}
