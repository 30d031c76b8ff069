import type { FleetRateScope } from './fleet.js';
import type { RateLimiter } from './rate-limiter.js';

type Clock = FleetRateScope['clock'];
type Sleep = FleetRateScope['sleep'];

/**
 * The limiters of this process, by clock and sleep (the pipeline's time, so a test's virtual
 * time never shares a limiter with real time) and then by service address, client ID and rate.
 */
const registry = new WeakMap<Clock, WeakMap<Sleep, Map<string, RateLimiter>>>();

/**
 * The in-process limiter of one client application: every client of the process with the same
 * service address, client ID and rate gets the same limiter, as they share one token cache,
 * because the tier belongs to the client ID and not to a client object. A scope without a
 * client ID gets a limiter of its own.
 *
 * @example
 * const first = processRateLimiter(scope);
 * const second = processRateLimiter({ ...scope, localLimiter: other });
 * first === second; // true: one tier, paced once for both clients
 */
export function processRateLimiter(scope: FleetRateScope): RateLimiter {
  if (scope.clientId === undefined) return scope.localLimiter(scope.rate);
  let bySleep = registry.get(scope.clock);
  if (bySleep === undefined) {
    bySleep = new WeakMap();
    registry.set(scope.clock, bySleep);
  }
  let limiters = bySleep.get(scope.sleep);
  if (limiters === undefined) {
    limiters = new Map();
    bySleep.set(scope.sleep, limiters);
  }
  const { requestsPerSecond, burst = 1 } = scope.rate;
  const key = JSON.stringify([scope.baseUrl, scope.clientId, requestsPerSecond, burst]);
  let limiter = limiters.get(key);
  if (limiter === undefined) {
    limiter = scope.localLimiter(scope.rate);
    limiters.set(key, limiter);
  }
  return limiter;
}
