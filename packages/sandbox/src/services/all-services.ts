import { readOperations } from '../spec/operations.js';
import { Router, type Route } from '../spec/router.js';
import { approvalsService } from './approvals.js';
import { authService } from './auth.js';
import { liabilityService } from './liability.js';
import { exposureService, riskEngineeringService } from './portal.js';
import type { ServiceDefinition } from './service.js';

/** Every service the sandbox plays, in the order the specs list them. */
export const SERVICES: readonly ServiceDefinition[] = [
  authService,
  exposureService,
  riskEngineeringService,
  liabilityService,
  approvalsService,
];

/** Every operation of every spec under its service's base path; read once per process. */
export const ROUTES: readonly Route<ServiceDefinition>[] = SERVICES.flatMap((service) =>
  readOperations(service.document).map((operation) => ({
    id: `${service.name}.${operation.operationId}`,
    service,
    operation,
    fullPath: service.basePath + operation.path,
  })),
);

export const ROUTER = new Router(ROUTES);

/** The route of the token endpoint, whose successes count as token issues. */
export const TOKEN_ROUTE_ID = 'auth.requestToken';
