import type { ValidationCause } from './spec/validators.js';

/** Counters of one route (or of all routes, in `totals`). */
export interface RouteStats {
  requests: number;
  /** Access tokens issued (token endpoint only). */
  tokenIssues: number;
  /** Responses with status 401. */
  unauthorized: number;
  /** Responses with status 429. */
  tooManyRequests: number;
  /** Requests that got an injected fault. */
  faults: number;
  /** Responses per status. */
  statuses: Record<string, number>;
}

/** A response the sandbox was about to send that broke the spec; it sent a 500 instead. */
export interface ResponseViolation {
  route: string;
  status: number;
  causes: ValidationCause[];
}

/** What `stats()` and `GET /__sandbox/stats` report. */
export interface SandboxStats {
  totals: RouteStats;
  /** By route id (`approvals.getApprovals`); `unmatched` counts paths no spec serves. */
  routes: Record<string, RouteStats>;
  /** The latest response violations (at most 100); empty while the sandbox keeps to the specs. */
  responseViolations: ResponseViolation[];
}

const MAX_VIOLATIONS = 100;

function emptyStats(): RouteStats {
  return {
    requests: 0,
    tokenIssues: 0,
    unauthorized: 0,
    tooManyRequests: 0,
    faults: 0,
    statuses: {},
  };
}

/**
 * Counters per route, updated in place on the request path.
 */
export class StatsRecorder {
  #routes = new Map<string, RouteStats>();
  #violations: ResponseViolation[] = [];
  readonly #ids: readonly string[];

  constructor(routeIds: readonly string[]) {
    this.#ids = [...routeIds, 'unmatched'];
    this.reset();
  }

  /** The live counters of a route. */
  route(id: string): RouteStats {
    let stats = this.#routes.get(id);
    if (!stats) {
      stats = emptyStats();
      this.#routes.set(id, stats);
    }
    return stats;
  }

  /** Counts a response's status. */
  recordStatus(stats: RouteStats, status: number): void {
    stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
    if (status === 401) stats.unauthorized++;
    else if (status === 429) stats.tooManyRequests++;
  }

  recordViolation(violation: ResponseViolation): void {
    this.#violations.push(violation);
    if (this.#violations.length > MAX_VIOLATIONS) this.#violations.shift();
  }

  reset(): void {
    this.#routes = new Map(this.#ids.map((id) => [id, emptyStats()]));
    this.#violations = [];
  }

  /** A copy of every counter, with the totals. */
  snapshot(): SandboxStats {
    const totals = emptyStats();
    const routes: Record<string, RouteStats> = {};
    for (const [id, stats] of this.#routes) {
      routes[id] = { ...stats, statuses: { ...stats.statuses } };
      totals.requests += stats.requests;
      totals.tokenIssues += stats.tokenIssues;
      totals.unauthorized += stats.unauthorized;
      totals.tooManyRequests += stats.tooManyRequests;
      totals.faults += stats.faults;
      for (const [status, count] of Object.entries(stats.statuses)) {
        totals.statuses[status] = (totals.statuses[status] ?? 0) + count;
      }
    }
    return { totals, routes, responseViolations: this.#violations.map((v) => ({ ...v })) };
  }
}
