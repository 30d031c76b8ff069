import type { SandboxCredentials } from './credentials.js';
import type { FaultPlan } from './faults.js';
import type { SandboxStats } from './stats.js';

/** Where each service is served. Pass these as the clients' `baseUrl` and `tokenUrl`. */
export interface SandboxUrls {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** The OAuth 2.0 token endpoint of exposure and risk engineering: `…/auth/login/connect/token`. */
  tokenUrl: string;
  /** `…/portal`: the exposure spec's paths follow, e.g. `/open/portal-api/exposure/locations`. */
  exposure: string;
  /** `…/portal`: the risk engineering spec's paths follow, e.g. `/open/portal-api/riskengineering/Gradings`. */
  riskEngineering: string;
  /** `…/liability/v1/sandbox` (the major of `specs/liability` and an environment segment, as on UAT). */
  liability: string;
  /** The liability base URL of every major served, the built-in one and `liabilityMajors`. */
  liabilityMajors: Readonly<Record<number, string>>;
  /** `…/approvals/v1` */
  approvals: string;
  /** `…/__sandbox`: stats, faults, keys and tokens, see the README. */
  admin: string;
  /** `…/<name>`: each service served from its spec alone, by the name of its spec. */
  services: Readonly<Record<string, string>>;
}

/** Known facts of the generated data, for assertions in tests. */
export interface SandboxFixtures {
  /** An employee with at least one approval in each of the four lists. */
  employeeWithApprovals: string;
  /** The employees whose four approval lists are empty. */
  employeesWithNothingOutstanding: readonly string[];
  sizes: { exposureLocations: number; riskLocations: number; gradings: number };
  /** Modification dates of every collection grow with the record index within these days. */
  modifiedFrom: string;
  modifiedTo: string;
}

/** A route of a spec as the sandbox serves it. */
export interface SandboxRoute {
  /** `service.operationId`: the selector of `fault()` and the key of `stats().routes`. */
  id: string;
  method: string;
  path: string;
}

/** A running sandbox. */
export interface Sandbox {
  readonly port: number;
  readonly urls: SandboxUrls;
  /** The credentials it accepts, in the shape the service clients take. Sandbox-only values. */
  readonly credentials: SandboxCredentials;
  /**
   * The `PARTNER_APIS_<NAME>_…` variables of each service served from its spec alone (address
   * and credentials), as its package's `fromEnv` reads them.
   */
  readonly variables: Readonly<Record<string, string>>;
  readonly fixtures: SandboxFixtures;
  /** Counters per route: requests, token issues, 401s, 429s, faults and statuses. */
  stats(): SandboxStats;
  resetStats(): void;
  /** Sets the fault plan of a route (`approvals.getApprovals`), a service (`approvals.*`) or all (`*`). */
  fault(selector: string, plan: FaultPlan): void;
  /** Removes the fault plan of one selector, or all. */
  clearFaults(selector?: string): void;
  /** Stops accepting one subscription key of a portal service, for key failover tests. */
  revokeKey(service: 'exposure' | 'riskEngineering', key: 'primary' | 'secondary'): void;
  /** Accepts every revoked key again. */
  restoreKeys(): void;
  /** Changes the lifetime of tokens issued from now on. */
  setTokenLifetime(seconds: number): void;
  /** Makes every token issued so far invalid, as if all had expired. */
  expireTokens(): void;
  routes(): SandboxRoute[];
  /** Closes every connection and stops listening. */
  close(): Promise<void>;
}
