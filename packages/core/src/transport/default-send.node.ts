import type { Send } from './exchange.js';
import { checkAgent, createNodeHttpSend } from './node-http-send.js';

/**
 * The sender of a client without a `fetch` option in Node: `node:http`/`node:https` over a
 * keep-alive agent, or over `agent` (an `http.Agent`, `https.Agent` or a proxy agent).
 */
export function createDefaultSend(agent: unknown): Send {
  return createNodeHttpSend(checkAgent(agent));
}
