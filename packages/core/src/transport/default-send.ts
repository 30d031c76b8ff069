import { ConfigurationError } from '@partner-apis/errors';
import type { Send } from './exchange.js';
import { createFetchSend } from './fetch-send.js';

/**
 * The sender of a client without a `fetch` option, where Node's `http` is not available: the
 * global `fetch`, looked up at each call (so a polyfill installed later is used). An `agent`
 * is a Node option and is refused.
 */
export function createDefaultSend(agent: unknown): Send {
  if (agent !== undefined) {
    throw new ConfigurationError(
      'agent',
      'needs the Node transport; give your fetch a proxy instead',
    );
  }
  return createFetchSend((input, init) => globalThis.fetch(input, init));
}
