import { redactUrl } from '@partner-apis/errors';
import type { Fleet, FleetRateScope } from './fleet.js';
import type { CustomRateLimit, RateLimiter } from './limiter.js';

/** The limiter every client of one client application shares, at the stricter rate declared. */
interface Shared {
  rate: CustomRateLimit;
  current: RateLimiter;
  /** Handed to every client: it follows `current` when a stricter rate replaces it. */
  readonly limiter: RateLimiter;
}

/** Stands for "no fleet" as the first key of the registry. */
const IN_PROCESS = {};

/**
 * The limiters of this process, by fleet, then by clock and sleep (the pipeline's time, so a
 * test's virtual time never shares a limiter with real time), then by service address and
 * client ID.
 */
const registry = new WeakMap<object, WeakMap<object, WeakMap<object, Map<string, Shared>>>>();

function child<V>(map: WeakMap<object, V>, key: object, make: () => V): V {
  const value = map.get(key) ?? make();
  map.set(key, value);
  return value;
}

const burstOf = (rate: CustomRateLimit) => rate.burst ?? 1;

function isStricter(rate: CustomRateLimit, than: CustomRateLimit): boolean {
  if (rate.requestsPerSecond !== than.requestsPerSecond) {
    return rate.requestsPerSecond < than.requestsPerSecond;
  }
  return burstOf(rate) < burstOf(than);
}

function describeRate(rate: CustomRateLimit): string {
  const burst = burstOf(rate);
  return `${rate.requestsPerSecond}/s${burst > 1 ? ` (burst ${burst})` : ''}`;
}

/**
 * The limiter of a pipeline. Every client of the process with the same fleet (or none),
 * service address and client ID gets the same one, because the tier belongs to the client ID
 * and not to a client object; with a fleet it is the fleet's, shared with every process, so a
 * client without a fleet pays nothing for Redis. When two clients of one client ID declare
 * different rates, both are paced at the stricter one and `warn` says so (to the second
 * client's logger, else as a `PARTNER_APIS_RATE_LIMIT` process warning). A scope without a
 * client ID gets a limiter of its own.
 */
export function pipelineRateLimiter(
  fleet: Fleet | undefined,
  scope: FleetRateScope,
  warn: (message: string) => void,
): RateLimiter {
  const create = (rate: CustomRateLimit) =>
    fleet === undefined ? scope.localLimiter(rate) : fleet.rateLimiter({ ...scope, rate });
  if (scope.clientId === undefined) return create(scope.rate);
  const byClock = child(registry, fleet ?? IN_PROCESS, () => new WeakMap());
  const byTime = child(byClock, scope.clock, () => new WeakMap<object, Map<string, Shared>>());
  const limiters = child(byTime, scope.sleep, () => new Map<string, Shared>());
  const key = JSON.stringify([scope.baseUrl, scope.clientId]);
  const known = limiters.get(key);
  if (known === undefined) {
    const shared: Shared = {
      rate: scope.rate,
      current: create(scope.rate),
      limiter: {
        take: (signal) => shared.current.take(signal),
        pause: (ms) => shared.current.pause?.(ms),
      },
    };
    limiters.set(key, shared);
    return shared.limiter;
  }
  if (describeRate(known.rate) !== describeRate(scope.rate)) {
    const declared = `${describeRate(known.rate)} and ${describeRate(scope.rate)}`;
    if (isStricter(scope.rate, known.rate)) {
      known.rate = scope.rate;
      if (known.current.setRate === undefined) known.current = create(scope.rate);
      else known.current.setRate(scope.rate);
    }
    warn(
      `Two clients of one client ID for ${redactUrl(scope.baseUrl)} declare ${declared}: ` +
        `both are paced at ${describeRate(known.rate)}, the stricter, as the tier belongs to the client ID.`,
    );
  }
  return known.limiter;
}
