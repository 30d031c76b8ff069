import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { describeSpec, type OpenApiDocument, type OperationModel } from '@partner-apis/spec-model';
import { parseBasic, parseBearer } from '../auth/authorization-header.js';
import { apiKeyOf } from '../http/request-body.js';
import { errorReply, type Reply } from '../http/reply.js';
import { SandboxConfigError } from '../config-error.js';
import type { ServiceDefinition } from './service.js';

/** What a service served from its spec alone accepts, one value per kind of credential. */
export interface SpecServiceCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly token: string;
  readonly apiKey: string;
}

/** Fresh credentials of a service served from its spec alone. */
export function specServiceCredentials(name: string): SpecServiceCredentials {
  const secret = () => randomBytes(18).toString('base64url');
  return { clientId: `sandbox-${name}`, clientSecret: secret(), token: secret(), apiKey: secret() };
}

/**
 * The `PARTNER_APIS_<NAME>_…` variables a client of a service served from its spec alone reads
 * (`readServiceEnv` of `@partner-apis/core`), with the address and credentials of this sandbox.
 */
export function specServiceVariables(
  name: string,
  baseUrl: string,
  credentials: SpecServiceCredentials,
): Record<string, string> {
  const prefix = `PARTNER_APIS_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_`;
  return {
    [`${prefix}BASE_URL`]: baseUrl,
    [`${prefix}CLIENT_ID`]: credentials.clientId,
    [`${prefix}CLIENT_SECRET`]: credentials.clientSecret,
    [`${prefix}TOKEN`]: credentials.token,
    [`${prefix}API_KEY`]: credentials.apiKey,
  };
}

/** Whether a request carries what one security scheme of the spec asks for. */
function carries(
  scheme: ReturnType<typeof describeSpec>['securitySchemes'][string],
  headers: IncomingHttpHeaders,
  query: URLSearchParams,
  credentials: SpecServiceCredentials,
): boolean {
  if (scheme.type === 'apiKey') {
    return apiKeyOf(scheme, headers, query) === credentials.apiKey;
  }
  if (scheme.type === 'http' && scheme.scheme === 'basic') {
    const basic = parseBasic(headers.authorization);
    return basic?.id === credentials.clientId && basic.secret === credentials.clientSecret;
  }
  return parseBearer(headers.authorization) === credentials.token;
}

/**
 * A service the sandbox serves from its spec alone, under `/<name>`: every operation answered
 * from its schema and examples, and a request admitted when it carries the credentials of one
 * of its security requirements (`credentials` of the running sandbox).
 */
export function specService(
  name: string,
  document: OpenApiDocument,
  credentialsOf: (context: Parameters<ServiceDefinition['guard']>[1]) => SpecServiceCredentials,
  specOption?: string,
): ServiceDefinition {
  let securitySchemes: ReturnType<typeof describeSpec>['securitySchemes'];
  try {
    ({ securitySchemes } = describeSpec(document));
  } catch (error) {
    const problem = (error as Error).message;
    const about = specOption === undefined ? undefined : { option: specOption, problem };
    throw new SandboxConfigError(`the ${name} spec: ${problem}`, about);
  }
  return {
    name,
    basePath: `/${name}`,
    document,
    errorStyle: 'common',
    specOption,
    guard(headers, context, operation: OperationModel, query): Reply | undefined {
      const { requirements } = operation.security;
      const credentials = credentialsOf(context);
      const admitted =
        requirements.length === 0 ||
        requirements.some((names) =>
          names.every((scheme) => carries(securitySchemes[scheme]!, headers, query, credentials)),
        );
      return admitted
        ? undefined
        : errorReply(401, 'authentication_error', 'The credentials are missing or not valid.');
    },
    handlers: {},
  };
}
