import type { OpenApiDocument } from '@partner-apis/spec-model';
import { SandboxConfigError } from './config-error.js';
import { APPROVALS_TIERS, type SandboxCredentialsInput } from './credentials.js';
import { checkFaultPlan, type FaultPlan } from './faults.js';
import { openapiDocument as liabilityDocument } from './generated/liability.document.js';
import { liabilityMajorOf } from './services/liability.js';
import type { ServiceName } from './services/service.js';
import { SPEC_SERVICE_NAMES } from './services/all-services.js';

/**
 * Sizes of the generated collections: the three below by name, any paged read by its route id
 * (`riskEngineering.listSurveys`); 5000 records where nothing is given.
 */
export interface SandboxSizes {
  /** Exposure locations, `exposure.listLocations` (default 5000). */
  exposureLocations?: number;
  /** Risk engineering locations, `riskEngineering.listRiskLocations` (default 5000). */
  riskLocations?: number;
  /** Risk engineering gradings, `riskEngineering.listGradings` (default 3000). */
  gradings?: number;
  /** Any other paged read, by route id. */
  [routeId: string]: number | undefined;
}

/** The route ids of the collections `sizes` names, and their default sizes. */
const NAMED_SIZES = {
  exposureLocations: { route: 'exposure.listLocations', size: 5000 },
  riskLocations: { route: 'riskEngineering.listRiskLocations', size: 5000 },
  gradings: { route: 'riskEngineering.listGradings', size: 3000 },
} as const;

/** The route ids `sizes` names by a name of their own. */
export const NAMED_SIZE_ROUTES: ReadonlySet<string> = new Set(
  Object.values(NAMED_SIZES).map((named) => named.route),
);

/** Records of a paged read that `sizes` does not size. */
export const DEFAULT_SIZE = 5000;

/** Options of `startSandbox`; every one is optional. */
export interface SandboxOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on; `127.0.0.1` by default. Anything else exposes the sandbox. */
  host?: string;
  /** Seed of the generated data (default 1): the same seed gives the same records. */
  seed?: number;
  sizes?: SandboxSizes;
  /** Lifetime of issued access tokens in seconds (default 3600). */
  tokenLifetimeSeconds?: number;
  /** Credentials to accept; whatever is left out is generated for this start. */
  credentials?: SandboxCredentialsInput;
  /** Employees whose four approval lists are empty (default `['100777']`). */
  employeesWithNothingOutstanding?: string[];
  /** Faults from the start, by route selector (`approvals.getApprovals`, `approvals.*`, `*`). */
  faults?: Record<string, FaultPlan>;
  /**
   * Check every response against the spec before it is sent; one that breaks it becomes a 500
   * that names the problem. On by default under vitest (`VITEST`) or `NODE_ENV=test`.
   */
  validateResponses?: boolean;
  /**
   * Further major versions of the liability API to serve beside the built-in one, as bundled
   * OpenAPI documents (JSON): during an upstream's parallel run, clients of both majors test
   * against one sandbox. Each is served under `/liability/v<major>/sandbox`, the major read from
   * its `info.version`, with the same credentials, sellers and quotes.
   */
  liabilityMajors?: readonly object[];
  /**
   * Bundled OpenAPI documents (JSON) to serve instead of the built-in specs, by service: an
   * operation added to a spec is served with its records, paging and auth, before any release.
   */
  specs?: Partial<Record<ServiceName, object>>;
  /**
   * Further services to serve from their specs alone, as bundled OpenAPI documents (JSON) by a
   * name of lower-case letters and digits: each under `/<name>`, answered from its schemas and
   * examples, with credentials and variables of its own (`credentials.services`, `variables`).
   */
  services?: Readonly<Record<string, object>>;
}

/** Options with every default applied and every value checked. */
export interface ResolvedOptions {
  port: number;
  host: string;
  seed: number;
  /** The three named sizes, as `fixtures.sizes` gives them. */
  sizes: { exposureLocations: number; riskLocations: number; gradings: number };
  /** By route id, every size given or defaulted. */
  sizesByRoute: ReadonlyMap<string, number>;
  specs: Partial<Record<ServiceName, OpenApiDocument>>;
  tokenLifetimeSeconds: number;
  credentials: SandboxCredentialsInput;
  employeesWithNothingOutstanding: string[];
  faults: Record<string, FaultPlan>;
  validateResponses: boolean;
  /** By major version, without the built-in one. */
  liabilityMajors: ReadonlyMap<number, OpenApiDocument>;
  services: ReadonlyMap<string, OpenApiDocument>;
}

/** Record ids have seven digits. */
const MAX_SIZE = 9_999_999;

function integer(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) {
    throw new SandboxConfigError(`${name} must be an integer from ${min} to ${max}`);
  }
  return value as number;
}

function credentialStrings(input: unknown, name: string): void {
  if (input === undefined) return;
  if (typeof input !== 'object' || input === null) {
    throw new SandboxConfigError(`${name} must be an object`);
  }
  for (const [key, value] of Object.entries(input)) {
    if (key === 'subscriptionKeys') credentialStrings(value, `${name}.subscriptionKeys`);
    else if (key === 'tier') {
      if (!Object.hasOwn(APPROVALS_TIERS, value as string)) {
        throw new SandboxConfigError(`${name}.tier must be bronze, silver or gold`);
      }
    } else if (typeof value !== 'string' || value === '' || value.includes(':')) {
      // A colon would make the Basic pair ambiguous.
      throw new SandboxConfigError(`${name}.${key} must be a non-empty string without ":"`);
    }
  }
}

function liabilityMajors(documents: unknown): Map<number, OpenApiDocument> {
  const majors = new Map<number, OpenApiDocument>();
  if (documents === undefined) return majors;
  if (!Array.isArray(documents)) {
    throw new SandboxConfigError('liabilityMajors must be a list of OpenAPI documents');
  }
  const builtIn = liabilityMajorOf(liabilityDocument);
  documents.forEach((document: unknown, i) => {
    const name = `liabilityMajors[${i}]`;
    const isObject = typeof document === 'object' && document !== null;
    const major = isObject ? liabilityMajorOf(document as OpenApiDocument) : undefined;
    if (
      !isObject ||
      major === undefined ||
      typeof (document as OpenApiDocument).paths !== 'object'
    ) {
      const problem = 'must be an OpenAPI document with paths and info.version';
      throw new SandboxConfigError(`${name} ${problem}`, { option: name, problem });
    }
    if (major === builtIn || majors.has(major)) {
      const problem = `the liability API v${major} is served already`;
      throw new SandboxConfigError(`${name}: ${problem}`, { option: name, problem });
    }
    majors.set(major, document as OpenApiDocument);
  });
  return majors;
}

function specServices(documents: unknown, taken: readonly string[]): Map<string, OpenApiDocument> {
  const services = new Map<string, OpenApiDocument>();
  if (documents === undefined) return services;
  if (typeof documents !== 'object' || documents === null) {
    throw new SandboxConfigError('services must be an object of OpenAPI documents by name');
  }
  for (const [name, document] of Object.entries(documents)) {
    const option = `services.${name}`;
    const paths = typeof document === 'object' && document !== null ? document.paths : undefined;
    const problem = !/^[a-z][a-z0-9]*$/.test(name)
      ? 'must be named with lower-case letters and digits'
      : taken.includes(name)
        ? 'is served already'
        : typeof paths !== 'object' || paths === null
          ? 'must be an OpenAPI document with paths'
          : undefined;
    if (problem !== undefined)
      throw new SandboxConfigError(`${option} ${problem}`, { option, problem });
    services.set(name, document as OpenApiDocument);
  }
  return services;
}

function sizesByRoute(sizes: SandboxSizes): Map<string, number> {
  if (typeof sizes !== 'object' || sizes === null) {
    throw new SandboxConfigError('sizes must be an object');
  }
  const byRoute = new Map<string, number>();
  for (const [name, { route, size }] of Object.entries(NAMED_SIZES)) {
    byRoute.set(route, integer(sizes[name], `sizes.${name}`, 0, MAX_SIZE, size));
  }
  for (const [name, value] of Object.entries(sizes)) {
    if (Object.hasOwn(NAMED_SIZES, name)) continue;
    byRoute.set(name, integer(value, `sizes.${name}`, 0, MAX_SIZE, DEFAULT_SIZE));
  }
  return byRoute;
}

const SPEC_SERVICES: readonly ServiceName[] = [
  'auth',
  'exposure',
  'riskEngineering',
  'liability',
  'approvals',
];

function specDocuments(specs: unknown): Partial<Record<ServiceName, OpenApiDocument>> {
  if (specs === undefined) return {};
  if (typeof specs !== 'object' || specs === null) {
    throw new SandboxConfigError('specs must be an object of OpenAPI documents by service');
  }
  for (const [service, document] of Object.entries(specs)) {
    if (!SPEC_SERVICES.includes(service as ServiceName)) {
      throw new SandboxConfigError(
        `specs.${service}: the services are ${SPEC_SERVICES.join(', ')}`,
      );
    }
    const paths = typeof document === 'object' && document !== null ? document.paths : undefined;
    if (typeof paths !== 'object' || paths === null) {
      throw new SandboxConfigError(`specs.${service} must be an OpenAPI document with paths`);
    }
  }
  return specs as Partial<Record<ServiceName, OpenApiDocument>>;
}

function runsUnderTest(): boolean {
  return process.env.VITEST !== undefined || process.env.NODE_ENV === 'test';
}

/**
 * Applies the defaults and checks every option, naming the one that is wrong.
 */
export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new SandboxConfigError('startSandbox options must be an object');
  }
  const byRoute = sizesByRoute(options.sizes ?? {});
  const credentials = options.credentials ?? {};
  for (const service of ['exposure', 'riskEngineering', 'liability', 'approvals'] as const) {
    credentialStrings(credentials[service], `credentials.${service}`);
  }
  const faults = options.faults ?? {};
  for (const [selector, plan] of Object.entries(faults))
    checkFaultPlan(plan, `faults["${selector}"]`);
  const employees = options.employeesWithNothingOutstanding ?? ['100777'];
  if (!Array.isArray(employees) || employees.some((e) => typeof e !== 'string')) {
    throw new SandboxConfigError('employeesWithNothingOutstanding must be a list of strings');
  }
  if (options.host !== undefined && (typeof options.host !== 'string' || options.host === '')) {
    throw new SandboxConfigError('host must be a non-empty string');
  }
  return {
    port: integer(options.port, 'port', 0, 65_535, 0),
    host: options.host ?? '127.0.0.1',
    seed: integer(options.seed, 'seed', 0, 2 ** 32 - 1, 1),
    sizes: {
      exposureLocations: byRoute.get(NAMED_SIZES.exposureLocations.route)!,
      riskLocations: byRoute.get(NAMED_SIZES.riskLocations.route)!,
      gradings: byRoute.get(NAMED_SIZES.gradings.route)!,
    },
    sizesByRoute: byRoute,
    specs: specDocuments(options.specs),
    tokenLifetimeSeconds: integer(
      options.tokenLifetimeSeconds,
      'tokenLifetimeSeconds',
      1,
      31_536_000,
      3600,
    ),
    credentials,
    employeesWithNothingOutstanding: employees,
    faults,
    validateResponses: options.validateResponses ?? runsUnderTest(),
    liabilityMajors: liabilityMajors(options.liabilityMajors),
    services: specServices(options.services, [
      ...SPEC_SERVICE_NAMES,
      'auth',
      'portal',
      'liability',
      'approvals',
      '__sandbox',
    ]),
  };
}
