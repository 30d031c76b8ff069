import { SandboxConfigError } from './config-error.js';

/**
 * What a faulty response looks like.
 * - a status (e.g. `503`): that status with the route's error body (`Retry-After: 1` on 429);
 * - `{ status, body?, headers? }`: exactly this reply; a string body is sent as is (as plain
 *   text unless `headers` give a content type), any other body as JSON. A JSON body is
 *   validated against the spec like a normal response, so a forced one cannot drift from the
 *   spec either;
 * - `'truncate'`: the normal response with its JSON body cut in half;
 * - `'html502'`: a gateway's HTML error page with status 502;
 * - `'reset'`: the connection is reset before any byte of the response;
 * - `'malformed'`: status 200 with a body that breaks the spec (never validated).
 */
export type FaultAction =
  | number
  | 'truncate'
  | 'html502'
  | 'reset'
  | 'malformed'
  | { status: number; body?: unknown; headers?: Record<string, string> };

/** A fault on every `n`-th request of the route (the `n`-th, the `2n`-th, …). */
export interface PeriodicFault {
  n: number;
  action: FaultAction;
}

/**
 * The faults of one route (or of several, through a selector such as `'*'`).
 */
export interface FaultPlan {
  /** One fault per request, in order, for the next requests; then the route answers normally. */
  sequence?: FaultAction[];
  /** Periodic faults, counted over the requests since the plan was set; the first match wins. */
  every?: PeriodicFault | PeriodicFault[];
  /** Milliseconds to wait before every response of the route, faulty or not. */
  latencyMs?: number;
}

/** The fault to apply to one request. */
export interface FaultDecision {
  action: FaultAction | undefined;
  latencyMs: number;
}

const NAMED_ACTIONS = new Set(['truncate', 'html502', 'reset', 'malformed']);

function checkStatus(status: unknown, where: string): void {
  if (!Number.isInteger(status) || (status as number) < 200 || (status as number) > 599) {
    throw new SandboxConfigError(`${where}: a status must be an integer from 200 to 599`);
  }
}

function checkAction(action: unknown, where: string): FaultAction {
  if (typeof action === 'number') {
    checkStatus(action, where);
    return action;
  }
  if (typeof action === 'string') {
    if (!NAMED_ACTIONS.has(action)) {
      throw new SandboxConfigError(
        `${where}: "${action}" is not a fault; use a status, truncate, html502, reset or malformed`,
      );
    }
    return action as FaultAction;
  }
  if (typeof action === 'object' && action !== null && !Array.isArray(action)) {
    const custom = action as Record<string, unknown>;
    checkStatus(custom.status, `${where}.status`);
    const headers = custom.headers;
    if (
      headers !== undefined &&
      (typeof headers !== 'object' ||
        headers === null ||
        Object.values(headers).some((v) => typeof v !== 'string'))
    ) {
      throw new SandboxConfigError(`${where}.headers must map header names to strings`);
    }
    return action as FaultAction;
  }
  throw new SandboxConfigError(`${where} must be a status, a fault name or { status, body }`);
}

/**
 * Checks a fault plan from options or from the admin endpoint, naming the offending part.
 */
export function checkFaultPlan(plan: unknown, where: string): FaultPlan {
  if (typeof plan !== 'object' || plan === null || Array.isArray(plan)) {
    throw new SandboxConfigError(`${where} must be an object with sequence, every or latencyMs`);
  }
  const { sequence, every, latencyMs, ...rest } = plan as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) {
    throw new SandboxConfigError(`${where}.${unknown[0]} is not a fault option`);
  }
  if (sequence !== undefined) {
    if (!Array.isArray(sequence)) throw new SandboxConfigError(`${where}.sequence must be a list`);
    sequence.forEach((action, i) => checkAction(action, `${where}.sequence[${i}]`));
  }
  if (every !== undefined) {
    const rules = Array.isArray(every) ? every : [every];
    rules.forEach((rule: unknown, i) => {
      const at = `${where}.every${Array.isArray(every) ? `[${i}]` : ''}`;
      const n = (rule as { n?: unknown } | null)?.n;
      if (!Number.isInteger(n) || (n as number) < 1) {
        throw new SandboxConfigError(`${at}.n must be a positive integer`);
      }
      checkAction((rule as { action?: unknown }).action, `${at}.action`);
    });
  }
  if (
    latencyMs !== undefined &&
    (typeof latencyMs !== 'number' || !(latencyMs >= 0) || latencyMs > 600_000)
  ) {
    throw new SandboxConfigError(`${where}.latencyMs must be a number from 0 to 600000`);
  }
  return plan as FaultPlan;
}

/** A plan in force, with its progress. */
class ActiveFault {
  readonly #sequence: readonly FaultAction[];
  readonly #every: readonly PeriodicFault[];
  readonly latencyMs: number;
  #next = 0;
  #count = 0;

  constructor(plan: FaultPlan) {
    this.#sequence = plan.sequence ?? [];
    this.#every = plan.every === undefined ? [] : [plan.every].flat();
    this.latencyMs = plan.latencyMs ?? 0;
  }

  take(): FaultAction | undefined {
    this.#count++;
    if (this.#next < this.#sequence.length) return this.#sequence[this.#next++];
    for (const rule of this.#every) if (this.#count % rule.n === 0) return rule.action;
    return undefined;
  }
}

/**
 * The faults in force, by selector: a route id (`approvals.getApprovals`), a service
 * (`approvals.*`) or every route (`*`). A request gets the most specific plan's fault first;
 * latencies of all matching plans add up.
 */
export class FaultRegistry {
  readonly #bySelector = new Map<string, ActiveFault>();
  readonly #routeIds: ReadonlySet<string>;
  /** Per route id: the plans that apply, most specific first; rebuilt when plans change. */
  #byRoute = new Map<string, ActiveFault[]>();

  constructor(routeIds: Iterable<string>) {
    this.#routeIds = new Set(routeIds);
  }

  /** Sets the plan of a selector, replacing an earlier one (and restarting its counters). */
  set(selector: string, plan: FaultPlan): void {
    if (typeof selector !== 'string' || selector === '') {
      throw new SandboxConfigError('fault: the selector must be a route id, "service.*" or "*"');
    }
    checkFaultPlan(plan, `fault("${selector}")`);
    const matches = [...this.#routeIds].filter((id) => applies(selector, id));
    if (matches.length === 0) {
      throw new SandboxConfigError(
        `fault("${selector}"): no route matches; use a route id such as ${[...this.#routeIds][0]}, "service.*" or "*"`,
      );
    }
    this.#bySelector.set(selector, new ActiveFault(plan));
    this.#rebuild();
  }

  /** Removes the plan of one selector, or every plan. */
  clear(selector?: string): void {
    if (selector === undefined) this.#bySelector.clear();
    else this.#bySelector.delete(selector);
    this.#rebuild();
  }

  /** The fault for the next request of a route; counts the request for periodic faults. */
  next(routeId: string): FaultDecision | undefined {
    const plans = this.#byRoute.get(routeId);
    if (plans === undefined) return undefined;
    let action: FaultAction | undefined;
    let latencyMs = 0;
    for (const plan of plans) {
      const taken = plan.take();
      action ??= taken;
      latencyMs += plan.latencyMs;
    }
    return { action, latencyMs };
  }

  #rebuild(): void {
    const byRoute = new Map<string, ActiveFault[]>();
    // Most specific first: the route itself, then its service, then everything.
    const ordered = [...this.#bySelector].sort(([a], [b]) => specificity(b) - specificity(a));
    for (const id of this.#routeIds) {
      const plans = ordered.filter(([selector]) => applies(selector, id)).map(([, p]) => p);
      if (plans.length > 0) byRoute.set(id, plans);
    }
    this.#byRoute = byRoute;
  }
}

function applies(selector: string, routeId: string): boolean {
  if (selector === '*') return true;
  if (selector.endsWith('.*')) return routeId.startsWith(selector.slice(0, -1));
  return selector === routeId;
}

function specificity(selector: string): number {
  return selector === '*' ? 0 : selector.endsWith('.*') ? 1 : 2;
}
