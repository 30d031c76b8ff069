import { hashString } from '../data/random.js';
import { openapiDocument } from '../generated/approvals.document.js';
import { errorReply, json } from '../http/reply.js';
import { withFreshRequestId } from './request-ids.js';
import type { ServiceDefinition } from './service.js';
import { specBody } from './spec-answers.js';

// Everyone not listed as having nothing outstanding has one to three approvals of each kind,
// so every list can be tested.
const LIST_LENGTHS = { minItems: 1, maxItems: 3 };

/**
 * The approvals service (`specs/approvals`): `client_id`/`client_secret` headers and a tier.
 * An employee's approvals are generated from the spec, seeded by the employee number, so they
 * are the same on every call.
 */
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
        `The ${tier} tier allows ${context.approvalsLimit.perSecond} calls per second.`,
        { headers: { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) } },
      );
      return { ...reply, fromGateway: true };
    }
    return undefined;
  },
  handlers: {
    getApprovals: withFreshRequestId(
      (context) => context.requestIds.approvals,
      ({ query, operation }, context) => {
        const employeeNumber = query.employeeNumber as string;
        const result = specBody(
          operation,
          context.seed,
          hashString(employeeNumber),
          LIST_LENGTHS,
        ) as Record<string, unknown>;
        result.employeeNumber = employeeNumber;
        if (context.employeesWithNothingOutstanding.has(employeeNumber)) {
          for (const [name, value] of Object.entries(result)) {
            if (Array.isArray(value)) result[name] = [];
          }
        }
        return json(200, result);
      },
    ),
  },
};
