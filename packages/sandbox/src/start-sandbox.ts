import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN_PREFIX, handleAdmin } from './admin.js';
import type { Sandbox } from './sandbox.js';
import { SlidingWindowLimit } from './auth/rate-limit.js';
import { RequestIdLedger } from './services/request-id-ledger.js';
import { TokenStore } from './auth/token-store.js';
import { SandboxConfigError } from './config-error.js';
import type { SandboxContext } from './context.js';
import { APPROVALS_TIERS, createCredentials } from './credentials.js';
import { MODIFIED_FROM, MODIFIED_TO } from './data/collection.js';
import { describeSpec } from '@partner-apis/spec-model';
import { FaultRegistry } from './faults.js';
import { errorReply } from './http/reply.js';
import { DEFAULT_SIZE, NAMED_SIZE_ROUTES, resolveOptions, type SandboxOptions } from './options.js';
import { RequestPipeline } from './request-pipeline.js';
import {
  ROUTER,
  ROUTES,
  routesOf,
  servicesWith,
  SPEC_SERVICE_NAMES,
} from './services/all-services.js';
import { specService, specServiceVariables } from './services/spec-service.js';
import {
  liabilityBasePath,
  liabilityMajorOf,
  liabilityService,
  liabilityServiceOf,
} from './services/liability.js';
import { LiabilityStore } from './services/liability-store.js';
import { specHandlers } from './services/spec-answers.js';
import { Router } from './spec/router.js';
import { StatsRecorder } from './stats.js';

const EMPLOYEE_WITH_APPROVALS = '100234';

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts the sandbox: the token endpoint and the exposure, risk engineering, liability and
 * approvals APIs on one local port, with real authentication, spec validation, generated data
 * and faults on demand.
 *
 * @example
 * const sb = await startSandbox({ sizes: { exposureLocations: 100_000 } });
 * const client = createExposureClient({
 *   baseUrl: sb.urls.exposure,
 *   tokenUrl: sb.urls.tokenUrl,
 *   credentials: sb.credentials.exposure,
 * });
 * sb.fault('exposure.listLocations', { sequence: [503, 503] });
 * await sb.close();
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const resolved = resolveOptions(options);
  const served = [...SPEC_SERVICE_NAMES, ...resolved.services.keys()];
  const credentials = createCredentials(resolved.credentials, served);
  const { seed, sizes } = resolved;
  const { tier } = credentials.approvals;
  // An approvals spec given at run time brings its own tiers.
  const givenTiers =
    resolved.specs.approvals && describeSpec(resolved.specs.approvals).rateLimitTiers;
  const context: SandboxContext = {
    seed,
    credentials,
    revokedKeys: new Set(),
    tokens: new TokenStore(resolved.tokenLifetimeSeconds),
    employeesWithNothingOutstanding: new Set(resolved.employeesWithNothingOutstanding),
    approvalsLimit: new SlidingWindowLimit(givenTiers?.[tier] ?? APPROVALS_TIERS[tier]),
    liability: new LiabilityStore(),
    requestIds: { liability: new RequestIdLedger(), approvals: new RequestIdLedger() },
  };
  const extraMajors = [...resolved.liabilityMajors].map(([major, document], i) =>
    liabilityServiceOf(document, major, `liabilityMajors[${i}]`),
  );
  const extraServices = [...resolved.services].map(([name, document]) =>
    specService(name, document, () => credentials.services[name]!, `services.${name}`),
  );
  const replaced = Object.keys(resolved.specs).length > 0;
  const routes = [
    ...(replaced ? routesOf(servicesWith(resolved.specs)) : ROUTES),
    ...routesOf([...extraMajors, ...extraServices]),
  ];
  const routeIds = routes.map((route) => route.id);
  for (const routeId of resolved.sizesByRoute.keys()) {
    // The named sizes stay valid when a replaced spec drops their read.
    if (NAMED_SIZE_ROUTES.has(routeId)) continue;
    const route = routes.find((r) => r.id === routeId);
    if (route?.operation.paging === undefined) {
      throw new SandboxConfigError(`sizes.${routeId}: no paged read has this route id`);
    }
  }
  const stats = new StatsRecorder(routeIds);
  const faults = new FaultRegistry(routeIds);
  for (const [selector, plan] of Object.entries(resolved.faults)) faults.set(selector, plan);
  const pipeline = new RequestPipeline({
    context,
    stats,
    faults,
    validateResponses: resolved.validateResponses,
    router: routes.length === ROUTES.length && !replaced ? ROUTER : new Router(routes),
    specHandlers: specHandlers(
      routes,
      seed,
      (routeId) => resolved.sizesByRoute.get(routeId) ?? DEFAULT_SIZE,
    ),
  });

  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query === -1 ? url : url.slice(0, query);
    const done = pathname.startsWith(ADMIN_PREFIX)
      ? handleAdmin(request, response, pathname, sandbox)
      : pipeline.handle(request, response, pathname, query === -1 ? '' : url.slice(query + 1));
    done.catch(() => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      const reply = errorReply(500, 'internal_server_error', 'The sandbox failed.');
      response.writeHead(500, { 'content-type': reply.contentType }).end(reply.body);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${urlHost(resolved.host)}:${port}`;
  let closing: Promise<void> | undefined;

  const sandbox: Sandbox = {
    port,
    urls: {
      origin,
      tokenUrl: `${origin}/auth/login/connect/token`,
      exposure: `${origin}/portal`,
      riskEngineering: `${origin}/portal`,
      liability: `${origin}${liabilityService.basePath}`,
      liabilityMajors: Object.fromEntries(
        [liabilityMajorOf(liabilityService.document) ?? 1, ...resolved.liabilityMajors.keys()].map(
          (major) => [major, `${origin}${liabilityBasePath(major)}`],
        ),
      ),
      approvals: `${origin}/approvals/v1`,
      admin: `${origin}/__sandbox`,
      services: Object.fromEntries(served.map((name) => [name, `${origin}/${name}`])),
    },
    variables: Object.fromEntries(
      served.flatMap((name) =>
        Object.entries(
          specServiceVariables(name, `${origin}/${name}`, credentials.services[name]!),
        ),
      ),
    ),
    credentials,
    fixtures: {
      employeeWithApprovals: EMPLOYEE_WITH_APPROVALS,
      employeesWithNothingOutstanding: [...resolved.employeesWithNothingOutstanding],
      sizes: { ...sizes },
      modifiedFrom: MODIFIED_FROM,
      modifiedTo: MODIFIED_TO,
    },
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    fault: (selector, plan) => faults.set(selector, plan),
    clearFaults: (selector) => faults.clear(selector),
    revokeKey(service, key) {
      if (service !== 'exposure' && service !== 'riskEngineering') {
        throw new SandboxConfigError('revokeKey: service must be exposure or riskEngineering');
      }
      if (key !== 'primary' && key !== 'secondary') {
        throw new SandboxConfigError('revokeKey: key must be primary or secondary');
      }
      context.revokedKeys.add(credentials[service].subscriptionKeys[key]);
    },
    restoreKeys: () => context.revokedKeys.clear(),
    setTokenLifetime(seconds) {
      if (!Number.isInteger(seconds) || seconds < 1 || seconds > 31_536_000) {
        throw new SandboxConfigError(
          'setTokenLifetime: seconds must be an integer from 1 to 31536000',
        );
      }
      context.tokens.lifetimeSeconds = seconds;
    },
    expireTokens: () => context.tokens.expireAll(),
    routes: () =>
      routes.map((route) => ({
        id: route.id,
        method: route.operation.method,
        path: route.fullPath,
      })),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
  return sandbox;
}
