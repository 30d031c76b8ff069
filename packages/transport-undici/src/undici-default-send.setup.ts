// The default sender of the pipeline conformance run (vitest.pipeline.config.ts): the sender
// `createUndiciFetch()` offers, which a client given it as `fetch` sends through. Every client
// the suites build without a `fetch` option then sends through it too. Core's own sources are
// imported, so the errors it makes are those the core suite's pipeline tells apart.
import { createDefaultSend as createFetchDefault } from '../../core/src/transport/default-send.js';
import { directSendOf } from '../../core/src/transport/direct-send.js';
import type { Send } from '../../core/src/transport/exchange.js';

/** The sender of a client without a `fetch` option: the one of the global (undici) `fetch`. */
export function createDefaultSend(agent: unknown): Send {
  // Refuses an agent as the default sender outside Node does.
  createFetchDefault(agent);
  const send = directSendOf(globalThis.fetch);
  if (send === undefined) throw new Error('the global fetch is not createUndiciFetch()');
  return send;
}
