import type { IncomingHttpHeaders } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { OperationModel } from '@partner-apis/spec-model';
import { parseBearer } from '../auth/authorization-header.js';
import { carriesActiveKey, type SandboxContext } from '../context.js';
import type { PortalCredentials } from '../credentials.js';
import { errorReply, json, type Reply } from '../http/reply.js';
import { openapiDocument as exposureDocument } from '../generated/exposure.document.js';
import { openapiDocument as riskEngineeringDocument } from '../generated/riskengineering.document.js';
import type { ServiceDefinition } from './service.js';

/** Exposure and risk engineering share the upstream's one request address. */
const PORTAL_BASE_PATH = '/portal';

function refuse(message: string): Reply {
  return errorReply(401, 'authentication_error', message, {
    headers: { 'www-authenticate': 'Bearer' },
  });
}

/** Bearer token with the operation's scopes, and an active subscription key of the service. */
function guardPortal(
  headers: IncomingHttpHeaders,
  context: SandboxContext,
  operation: OperationModel,
  query: URLSearchParams,
  credentials: PortalCredentials,
): Reply | undefined {
  if (!carriesActiveKey(context, credentials, operation, headers, query)) {
    return refuse('The subscription key is missing or not valid for this API.');
  }
  const token = parseBearer(headers.authorization);
  if (token === undefined) return refuse('A bearer access token is required.');
  const issued = context.tokens.find(token);
  if (issued === undefined) return refuse('The access token is invalid or has expired.');
  const missing = operation.security.oauth2Scopes.find((scope) => !issued.scopes.has(scope));
  if (missing !== undefined) return refuse(`The access token lacks the scope ${missing}.`);
  return undefined;
}

/**
 * The exposure service (`specs/exposure`). A Statement of Values receipt counts the locations
 * received, which no spec can say; the paged locations are answered from the spec.
 */
export const exposureService: ServiceDefinition = {
  name: 'exposure',
  basePath: PORTAL_BASE_PATH,
  document: exposureDocument,
  errorStyle: 'common',
  guard: (headers, context, operation, query) =>
    guardPortal(headers, context, operation, query, context.credentials.exposure),
  handlers: {
    submitStatementOfValues({ body }) {
      const { locations } = body as { locations: unknown[] };
      return json(202, {
        submissionId: `SOV-${randomUUID()}`,
        status: 'received',
        locationCount: locations.length,
        receivedAt: new Date().toISOString(),
      });
    },
  },
};

/** The risk engineering service (`specs/riskengineering`): every operation answered from the spec. */
export const riskEngineeringService: ServiceDefinition = {
  name: 'riskEngineering',
  basePath: PORTAL_BASE_PATH,
  document: riskEngineeringDocument,
  errorStyle: 'common',
  guard: (headers, context, operation, query) =>
    guardPortal(headers, context, operation, query, context.credentials.riskEngineering),
  handlers: {},
};
