import { APPROVALS_TIERS } from '../credentials.js';
import { approvalsOf } from '../data/approvals-records.js';
import { openapiDocument } from '../generated/approvals.document.js';
import { errorReply, json } from '../http/reply.js';
import { withFreshRequestId } from './request-ids.js';
import type { ServiceDefinition } from './service.js';

/** The approvals service (`specs/approvals`): `client_id`/`client_secret` headers and a tier. */
export const approvalsService: ServiceDefinition = {
  name: 'approvals',
  basePath: '/approvals/v1',
  document: openapiDocument,
  errorStyle: 'common',
  guard(headers, context) {
    const { clientId, clientSecret, tier } = context.credentials.approvals;
    if (headers.client_id !== clientId || headers.client_secret !== clientSecret) {
      return errorReply(401, 'authentication_error', 'Invalid client credentials.');
    }
    const waitMs = context.approvalsLimit.admit(performance.now());
    if (waitMs > 0) {
      // The documents give the tiers but not the answer to exceeding one; a gateway's 429
      // with Retry-After is what clients must handle.
      const reply = errorReply(
        429,
        'too_many_requests',
        `The ${tier} tier allows ${APPROVALS_TIERS[tier]} calls per second.`,
        { headers: { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) } },
      );
      return { ...reply, fromGateway: true };
    }
    return undefined;
  },
  handlers: {
    getApprovals: withFreshRequestId(
      (context) => context.requestIds.approvals,
      ({ query }, context) =>
        json(
          200,
          approvalsOf(
            context.seed,
            query.employeeNumber as string,
            context.employeesWithNothingOutstanding,
          ),
        ),
    ),
  },
};
