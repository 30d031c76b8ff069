import { errorReply } from '../http/reply.js';
import type { SandboxContext } from '../context.js';
import type { Handler } from './service.js';

// Request ids are remembered to reject reuse; past this many the oldest are forgotten, so a
// soak test cannot grow memory without bound.
const REMEMBERED_REQUEST_IDS = 200_000;

/**
 * The `X-Z-Request-Id` values a service has seen, so a reused one can be refused.
 *
 * @example
 * const ledger = new RequestIdLedger();
 * ledger.use('r-1'); // true
 * ledger.use('r-1'); // false
 */
export class RequestIdLedger {
  readonly #seen = new Set<string>();

  /** Remembers a request id; `false` when it was used before. */
  use(id: string): boolean {
    if (this.#seen.has(id)) return false;
    this.#seen.add(id);
    if (this.#seen.size > REMEMBERED_REQUEST_IDS) {
      this.#seen.delete(this.#seen.values().next().value as string);
    }
    return true;
  }
}

/**
 * Wraps a handler so a request whose `X-Z-Request-Id` was used before gets a 400: the documents
 * ask for a unique identifier on every request.
 *
 * @example
 * const getApprovals = withFreshRequestId((context) => context.requestIds.approvals, handler);
 */
export function withFreshRequestId(
  ledgerOf: (context: SandboxContext) => RequestIdLedger,
  handler: Handler,
): Handler {
  return (request, context) => {
    const id = request.headers['x-z-request-id'] as string;
    if (!ledgerOf(context).use(id)) {
      return errorReply(
        400,
        'data_validation',
        'X-Z-Request-Id was already used by an earlier request.',
        {
          causes: [
            {
              code: 'duplicate',
              message: 'X-Z-Request-Id must be unique for every request.',
              field: '/X-Z-Request-Id',
            },
          ],
        },
      );
    }
    return handler(request, context);
  };
}
