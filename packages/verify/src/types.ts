import type { HttpAgentLike } from '@partner-apis/core';

/** A spec of `specs/`: `specs/<spec>/openapi.yaml`. */
export type SpecName =
  'auth' | 'common' | 'exposure' | 'riskengineering' | 'liability' | 'approvals';

/**
 * What the answers say about one guess or statement of a spec: `confirmed` or `contradicted`
 * (only when either answer was possible and one was seen), `unobserved` (the check ran and
 * could not tell, and its evidence says why: no answer, refused credentials, an environment
 * that answers the same whatever it is sent), or `skipped` (not run, for a reason that is no
 * fault of the environment: writes not allowed, no employee given, nothing to read).
 */
export type FindingStatus = 'confirmed' | 'contradicted' | 'unobserved' | 'skipped';

/**
 * One change of a spec, in the manner of a JSON Patch (RFC 6902) operation: `path` is a JSON
 * Pointer into `specs/<spec>/openapi.yaml` as written (not bundled).
 */
export interface SpecEdit {
  /** `add` a member that may be missing (its parent must exist), or `replace` one that exists. */
  op: 'add' | 'replace';
  path: string;
  value: unknown;
}

/** What a check would take for an answer either way: both must be possible for it to judge. */
export interface Expectation {
  /** The answer that confirms the guess. */
  confirm: string;
  /** The answer that contradicts it. */
  contradict: string;
}

/** What one check found. */
export interface Finding {
  /** The spec the pointer and the edit refer to, e.g. `common` or `exposure`. */
  spec: SpecName;
  /**
   * JSON Pointer (RFC 6901) into `specs/<spec>/openapi.yaml` of the `x-upstream-gap` or the
   * statement tested, e.g. `/components/parameters/Offset/x-upstream-gap`.
   */
  pointer: string;
  status: FindingStatus;
  /** What would confirm the guess and what would contradict it. */
  expects: Expectation;
  /** What was sent and seen, in words; never a credential. */
  evidence: string;
  /** The spec change that would make the spec true; only for `contradicted`, and only when known. */
  edit?: SpecEdit[];
}

/** A client ID, secret and subscription key pair, as `createExposureClient` takes them. */
export interface PortalCredentials {
  clientId: string;
  clientSecret: string;
  subscriptionKeys: { primary: string; secondary?: string | undefined };
}

/** A client ID and secret (liability: HTTP Basic; approvals: `client_id` / `client_secret`). */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** A tier of the platform (`x-rate-limit-tiers`), or calls per second of one's own. */
export type Pace = 'bronze' | 'silver' | 'gold' | { requestsPerSecond: number };

/** The exposure or the risk engineering service, as its client takes it. */
export interface PortalTarget {
  /** The service's request address (`{base_url}`). */
  baseUrl: string;
  /** The token endpoint, `{auth_url}/login/connect/token`. */
  tokenUrl: string;
  credentials: PortalCredentials;
  /** How fast to call, the token request included; the lowest tier (`bronze`) by default. */
  rateLimit?: Pace | undefined;
}

/** The liability service. */
export interface LiabilityTarget {
  /** The address of the environment, ending in its version and environment segments. */
  baseUrl: string;
  credentials: ClientCredentials;
  /**
   * Also create a seller and a quote for it from the spec's examples, and read them back: writes.
   * Honoured only on a loopback address or one that names a test environment (`uat`, `sandbox`,
   * `mock`, …), never on any other address.
   */
  allowWrites?: boolean | undefined;
  /** How fast to call; the lowest tier (`bronze`) by default, as the liability document advises. */
  rateLimit?: Pace | undefined;
}

/** The approvals service. */
export interface ApprovalsTarget {
  /** The address of the environment, ending in `/v1`. */
  baseUrl: string;
  credentials: ClientCredentials;
  /** The client application's tier; calls never go faster. `bronze` by default. */
  tier?: Pace | undefined;
  /** An employee whose approvals may be read; without one the answer's fields stay unobserved. */
  employeeNumber?: string | undefined;
}

/** Options of `verifyUpstream`: the services to check, each as its client takes it. */
export interface VerifyOptions {
  exposure?: PortalTarget | undefined;
  riskEngineering?: PortalTarget | undefined;
  liability?: LiabilityTarget | undefined;
  approvals?: ApprovalsTarget | undefined;
  /**
   * Specs to check against instead of those this package was built from, each bundled into one
   * document (every external `$ref` inlined, as `redocly bundle` writes it): to try edited specs
   * before regenerating.
   */
  documents?:
    Partial<Record<Exclude<SpecName, 'common'>, Readonly<Record<string, unknown>>>> | undefined;
  /** Stops the checks; `verifyUpstream` then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /**
   * The `http.Agent` or `https.Agent` every request is sent through (a proxy agent, say), as
   * the clients of the SDK take it.
   */
  agent?: HttpAgentLike | undefined;
  /** The `fetch` every request is sent with instead of the default transport; not with `agent`. */
  fetch?: typeof globalThis.fetch | undefined;
  /** Your product token, sent first in `User-Agent` (e.g. `acme-ci/2.1`). */
  userAgent?: string | undefined;
  /** Told as each check begins, e.g. `exposure listLocations: records, paging, page cap`. */
  onProgress?: ((check: string) => void) | undefined;
  /**
   * The environment is an upstream's mocking service, which answers the same fixed data
   * whatever it is sent and checks no credentials: no token is requested, every guess that
   * needs requests told apart is unobserved, and no finding carries an edit.
   */
  mock?: boolean | undefined;
}

/** What `verifyUpstream` found. */
export interface VerifyResult {
  /** One finding per spec and pointer, in the order the checks ran. */
  findings: Finding[];
  /**
   * What the answers say of the environment as a whole, one line each: a service that answers
   * the same whatever it is sent (a mocking service) is named here.
   */
  notes: string[];
}
