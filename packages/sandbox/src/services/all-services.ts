import { describeSpec, inlineRefs, type OpenApiDocument } from '@partner-apis/spec-model';
import { SandboxConfigError } from '../config-error.js';
import { withOpenRecordExamples } from '../data/open-records.js';
import { Router, type Route } from '../spec/router.js';
import { documents } from '../generated/documents.js';
import { approvalsService } from './approvals.js';
import { authService } from './auth.js';
import { liabilityService } from './liability.js';
import { exposureService, riskEngineeringService } from './portal.js';
import type { ServiceDefinition, ServiceName } from './service.js';
import { specService } from './spec-service.js';

/** The specs of services with answers of their own, by the name of their folder under `specs/`. */
const OWN_ANSWERS = new Set(['auth', 'exposure', 'riskengineering', 'liability', 'approvals']);

/** The specs the sandbox serves from the spec alone: every other one it is built with. */
export const SPEC_SERVICE_NAMES: readonly string[] = Object.keys(documents).filter(
  (name) => !OWN_ANSWERS.has(name),
);

/** Every service the sandbox plays, in the order the specs list them. */
const SERVICES: readonly ServiceDefinition[] = [
  authService,
  exposureService,
  riskEngineeringService,
  liabilityService,
  approvalsService,
  ...SPEC_SERVICE_NAMES.map((name) =>
    specService(
      name,
      documents[name as keyof typeof documents],
      (context) => context.credentials.services[name]!,
    ),
  ),
];

/**
 * Every operation of the services' specs under each service's base path, described by the
 * operation model from the spec with every `$ref` inlined, so each schema stands alone. A spec
 * the model cannot read is a `SandboxConfigError` naming it.
 */
export function routesOf(
  services: readonly ServiceDefinition[],
): readonly Route<ServiceDefinition>[] {
  return services.flatMap((service) => {
    const name = service.routeName ?? service.name;
    const document = withOpenRecordExamples(service.name, service.document);
    let operations;
    try {
      ({ operations } = describeSpec(inlineRefs(document, document) as OpenApiDocument));
    } catch (error) {
      const problem = (error as Error).message;
      const { specOption } = service;
      throw new SandboxConfigError(
        `the ${name} spec: ${problem}`,
        specOption === undefined ? undefined : { option: specOption, problem },
      );
    }
    return operations.map((operation) => ({
      id: `${name}.${operation.operationId}`,
      service,
      operation,
      fullPath: service.basePath + operation.path,
    }));
  });
}

/**
 * The services with some of their specs replaced (`startSandbox`'s `specs`).
 */
export function servicesWith(
  documents: Partial<Record<ServiceName, OpenApiDocument>>,
): readonly ServiceDefinition[] {
  return SERVICES.map((service) => {
    const document = documents[service.name as ServiceName];
    return document === undefined
      ? service
      : { ...service, document, specOption: `specs.${service.name}` };
  });
}

/** Every operation of every built-in spec; read once per process. */
export const ROUTES: readonly Route<ServiceDefinition>[] = routesOf(SERVICES);

export const ROUTER = new Router(ROUTES);

/** The route of the token endpoint, whose successes count as token issues. */
export const TOKEN_ROUTE_ID = 'auth.requestToken';
