import { createHash } from 'node:crypto';
import type { FleetRateScope, RateLimiter, RateSlot } from '@partner-apis/core';
import { UNAVAILABLE, type FleetConnection } from './fleet-connection.js';

export interface FleetRateLimiterSettings {
  connection: FleetConnection;
  keyPrefix: string;
  /** Added to every window, for the spread between a grant and the call reaching the server. */
  marginMs: number;
  /** This fleet instance (one per process), as the limiter's peer count knows it. */
  processId: string;
}

/** A process that has taken no slot for this long no longer counts as a peer. */
const PEER_TTL_MS = 5000;
/** How often one call gives up a slot it missed before it goes anyway. */
const MAX_RETAKES = 3;

/**
 * The generic cell rate algorithm with no burst, in one atomic step: KEYS[1] holds the
 * theoretical arrival time (ms by Redis's clock), the earliest time the next call may go; each
 * call takes the slot `max(now, tat)` and moves `tat` one interval past it. Calls are spread
 * evenly rather than sent in bunches, so the server sees them in the order and spacing they were
 * granted, and any `limit + 1` calls span at least `limit` intervals: a window plus the margin.
 * KEYS[2] holds the processes seen lately. ARGV: interval ms, process id, peer ttl ms, then the
 * times (ascending) of calls a process sent on its own while Redis was away, booked like grants.
 * Answers { wait ms, peers, now }.
 */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval = tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
for i = 4, #ARGV do
  tat = math.max(tat, tonumber(ARGV[i])) + interval
end
local slot = math.max(now, tat)
tat = slot + interval
redis.call('SET', KEYS[1], string.format('%.3f', tat), 'PX', math.ceil(tat - now) + 1000)
redis.call('ZADD', KEYS[2], now, ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[3]))
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[3]))
return { math.ceil(slot - now), redis.call('ZCARD', KEYS[2]), math.floor(now) }
`;

/** The shared window books a call when its slot is reserved, so sending changes nothing. */
const BOOKED: RateSlot = { sent: () => undefined };

/**
 * The limiter of one scope (client ID, service address, rate) shared through Redis: across
 * every process, calls go one interval apart, `(1000 + margin) / rate` ms, so no second as the
 * server sees it holds more than the rate. While Redis cannot be used, each process paces
 * itself at its share of the rate (whole calls per second, over the processes seen lately),
 * after one quiet window so that the calls granted before add nothing; when Redis is back, the
 * calls sent meanwhile are booked before the next grant.
 */
export function createFleetRateLimiter(
  scope: FleetRateScope,
  s: FleetRateLimiterSettings,
): RateLimiter {
  const rate = scope.rate.requestsPerSecond;
  const intervalMs = (1000 + s.marginMs) / rate;
  /** The span of `⌊rate⌋` calls: one second and the margin, for the tiers. */
  const windowMs = intervalMs * Math.max(1, Math.floor(rate));
  const id = createHash('sha256')
    .update(JSON.stringify([scope.baseUrl, scope.clientId ?? '', rate, s.marginMs]))
    .digest('base64url');
  const keys = [`${s.keyPrefix}rate:${id}`, `${s.keyPrefix}rate-peers:${id}`];
  let peers = 1;
  /** Redis's clock minus ours, from the last answer. */
  let offset = 0;
  /** The latest slot Redis granted this process, by our clock. */
  let lastSlot = Number.NEGATIVE_INFINITY;
  let local: { limiter: RateLimiter; resumeAt: number } | undefined;
  /** Our times of the calls sent on our own within the last window. */
  let sentAlone: number[] = [];

  /** The calls sent alone that are still within a window, handed over to one Redis call. */
  function takeSentAlone(now: number): number[] {
    const recent = sentAlone.filter((time) => time > now - windowMs);
    sentAlone = [];
    return recent;
  }

  async function takeShared(signal: AbortSignal): Promise<RateSlot> {
    for (let retakes = 0; ; retakes += 1) {
      const asked = Date.now();
      const alone = takeSentAlone(asked);
      const booked = alone.map((time) => Math.round(time + offset));
      const answer = await s.connection
        .run(
          () => s.connection.script(TAKE, keys, [intervalMs, s.processId, PEER_TTL_MS, ...booked]),
          signal,
        )
        .catch((error: unknown) => {
          sentAlone.unshift(...alone);
          throw error;
        });
      if (answer === UNAVAILABLE) {
        sentAlone.unshift(...alone);
        return takeLocal(signal);
      }
      const [waitMs, seen, redisNow] = answer as [number, number, number];
      const answered = Date.now();
      local = undefined;
      peers = Math.max(1, seen);
      offset = redisNow - (asked + answered) / 2;
      const due = redisNow + waitMs - offset;
      lastSlot = due;
      if (due > answered) await scope.sleep(due - answered, signal);
      // A slot missed by more than half the margin (the process was short of CPU, or Redis
      // answered late) would reach the server bunched with the calls after it: take a new one.
      if (Date.now() - due <= s.marginMs / 2 || retakes === MAX_RETAKES) return BOOKED;
    }
  }

  function record(): void {
    sentAlone.push(Date.now());
  }

  function takeLocal(signal: AbortSignal): RateSlot | Promise<RateSlot> {
    const now = Date.now();
    if (local === undefined) {
      // Each process's share, whole calls per window where the share allows, so that the
      // shares add up to at most the rate in every window.
      const share = rate / peers;
      const perSecond = share >= 1 ? Math.floor(share) : share;
      local = {
        limiter: scope.localLimiter({
          requestsPerSecond: (perSecond * 1000) / (1000 + s.marginMs),
        }),
        resumeAt: Math.max(now, lastSlot) + windowMs,
      };
    }
    const { limiter, resumeAt } = local;
    const grant = (): RateSlot | Promise<RateSlot> => {
      const slot = limiter.take(signal);
      if (!(slot instanceof Promise)) {
        record();
        return slot;
      }
      return slot.then((taken) => {
        record();
        return taken;
      });
    };
    if (now < resumeAt) return scope.sleep(resumeAt - now, signal).then(grant);
    return grant();
  }

  return {
    take(signal) {
      return s.connection.degraded ? takeLocal(signal) : takeShared(signal);
    },
  };
}
