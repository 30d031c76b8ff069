import { errorReply } from '../http/reply.js';
import type { SandboxContext } from '../context.js';
import type { RequestIdLedger } from './request-id-ledger.js';
import type { Handler } from './service.js';

/**
 * Wraps a handler so a request whose `X-Z-Request-Id` was used before gets a 400: the documents
 * ask for a unique identifier on every request.
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
