import { createHash } from 'node:crypto';
import type { FleetRateScope, RateLimiter, RateSlot } from '@partner-apis/core';
import { UNAVAILABLE, type FleetConnection } from './fleet-connection.js';

export interface FleetRateLimiterSettings {
  connection: FleetConnection;
  keyPrefix: string;
  /** Added to every window, for the spread between a grant and the call reaching the server. */
  marginMs: number;
  /** This fleet instance (one per process), as the limiter's roster knows it. */
  processId: string;
  /** How long the processes keep to their own cells after Redis comes back (ms). */
  handBackMs: number;
}

/** A process that has taken no slot for this long no longer counts as a peer. */
const PEER_TTL_MS = 5000;
/** How long one roster holds: a process joins the roster at the start of the next epoch. */
const EPOCH_MS = 1000;
/** How often a process with no place in the roster looks whether Redis is back. */
const PROBE_MS = 250;
/** How long the offset from Redis's clock of one sharp answer is trusted over blurrier ones. */
const OFFSET_TTL_MS = 60_000;
/** How often one call gives up a slot it missed before it goes anyway. */
const MAX_RETAKES = 3;

/** Redis's clock in ms, with its microseconds: every script starts with it. */
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
`;

/**
 * The generic cell rate algorithm with no burst, in one atomic step: each call takes the slot
 * `max(now, tat)` (by Redis's clock) and moves the theoretical arrival time `tat` one interval,
 * `(1000 + margin) / rate` ms, past it. So any `rate + 1` calls span at least `rate` intervals:
 * a second and the margin. A slot is reserved only up to a horizon ahead, so when Redis goes
 * away no grant lies further than that in the future; a caller told to wait longer asks again.
 *
 * It also keeps the roster the processes fall back on while Redis is away: for each epoch (a
 * stretch of Redis's clock), the processes seen lately that were first seen before the epoch
 * began, in a fixed order, written once. Every process answered within one epoch holds the
 * same roster, and one that joined lately has no place in it until the next epoch.
 *
 * KEYS: `tat`; the processes by when they were last seen; by when they were first seen; the
 * roster (`#epoch`, `#count`, and each process's rank); the end of a 429's pause; the end of a
 * hand-back (the first slot is an interval after it, clear of the last own cell). ARGV:
 * interval, process id, peer ttl, horizon, epoch length. Answers { granted (0 or 1), slot,
 * roster size, this process's rank in it (-1: none), now }.
 */
const TAKE = `${NOW}
local interval = tonumber(ARGV[1])
local id = ARGV[2]
local ttl = tonumber(ARGV[3])
for _, gone in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - ttl)) do
  redis.call('HDEL', KEYS[3], gone)
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - ttl)
redis.call('ZADD', KEYS[2], now, id)
redis.call('HSETNX', KEYS[3], id, string.format('%.3f', now))
for i = 2, 4 do redis.call('PEXPIRE', KEYS[i], ttl) end
local epoch = math.floor(now / tonumber(ARGV[5]))
if tonumber(redis.call('HGET', KEYS[4], '#epoch') or '-1') ~= epoch then
  local start = epoch * tonumber(ARGV[5])
  local members = {}
  for _, member in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
    if tonumber(redis.call('HGET', KEYS[3], member) or now) < start then
      members[#members + 1] = member
    end
  end
  table.sort(members)
  redis.call('DEL', KEYS[4])
  redis.call('HSET', KEYS[4], '#epoch', epoch, '#count', #members)
  for rank, member in ipairs(members) do redis.call('HSET', KEYS[4], member, rank - 1) end
  redis.call('PEXPIRE', KEYS[4], ttl)
end
local slot = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'),
  tonumber(redis.call('GET', KEYS[5]) or '0'),
  tonumber(redis.call('GET', KEYS[6]) or '0') + interval)
local granted = 0
if slot - now <= tonumber(ARGV[4]) then
  granted = 1
  local tat = slot + interval
  redis.call('SET', KEYS[1], string.format('%.3f', tat), 'PX', math.ceil(tat - now) + 1000)
end
local count = tonumber(redis.call('HGET', KEYS[4], '#count'))
local rank = tonumber(redis.call('HGET', KEYS[4], id) or '-1')
return { granted, string.format('%.3f', slot), count, rank, string.format('%.3f', now) }
`;

/**
 * When sharing resumes after Redis was away. The first process back sets the end of the
 * hand-back, ARGV[1] ms on; until then every process keeps to its own cells and no shared slot
 * is granted, since processes still away cannot see the shared ones. A process coming back
 * after others already share again (a peer seen since it went away, ARGV[2] by Redis's clock)
 * shares at once. KEYS: the hand-back's end, the peers. Answers { hand-back end, now }.
 */
const HAND_BACK = `${NOW}
local ends = tonumber(redis.call('GET', KEYS[1]) or '0')
if ends <= now then
  if redis.call('ZCOUNT', KEYS[2], ARGV[2], '+inf') > 0 then
    ends = now
  else
    ends = now + tonumber(ARGV[1])
    redis.call('SET', KEYS[1], string.format('%.3f', ends), 'PX', math.ceil(tonumber(ARGV[1])))
  end
end
return { string.format('%.3f', ends), string.format('%.3f', now) }
`;

/** A 429's pause for the whole fleet: KEYS[1] holds its end, moved ARGV[1] ms on at least. */
const PAUSE = `${NOW}
local ends = now + tonumber(ARGV[1])
if ends > tonumber(redis.call('GET', KEYS[1]) or '0') then
  redis.call('SET', KEYS[1], string.format('%.3f', ends), 'PX', math.ceil(tonumber(ARGV[1])))
end
return 1
`;

/** The shared window books a call when its slot is reserved, so sending changes nothing. */
const BOOKED: RateSlot = { sent: () => undefined };

/** How the limiter hands out slots now. */
type Mode =
  | { kind: 'shared' }
  /** Redis is away: own cells only, from `from` (Redis's clock) on. */
  | { kind: 'alone'; from: number }
  /** Redis is back: own cells until `until` (Redis's clock), shared slots from then on. */
  | { kind: 'handing-back'; until: number };

/**
 * The limiter of one scope (client ID, service address, rate) shared through Redis. Calls of
 * every process go one interval apart, `(1000 + margin) / rate` ms, so no second as the server
 * sees it holds more than the rate.
 *
 * While Redis cannot be used, a process keeps to cells of its own: time (Redis's clock, as last
 * seen) is cut into cells one interval long, and cell `k` belongs to the process of rank
 * `k mod peers` in the roster of the epoch Redis went away in, so the calls stay an interval
 * apart however many processes there are; a process not in the roster waits for Redis. The
 * first own cell comes one horizon and one interval after Redis went away, clear of every slot
 * Redis granted. When Redis is back, the processes keep to their own cells for a hand-back
 * period, so that those still away meet no shared slot, and then share again. A 429's
 * `Retry-After` pauses every process.
 */
export function createFleetRateLimiter(
  scope: FleetRateScope,
  s: FleetRateLimiterSettings,
): RateLimiter {
  const rate = scope.rate.requestsPerSecond;
  const intervalMs = (1000 + s.marginMs) / rate;
  /** The span of `⌊rate⌋` calls: one second and the margin, for the tiers. */
  const windowMs = intervalMs * Math.max(1, Math.floor(rate));
  /** How far ahead Redis reserves a slot: no grant outlives Redis by more than this. */
  const horizonMs = windowMs;
  const id = createHash('sha256')
    .update(JSON.stringify([scope.baseUrl, scope.clientId ?? '', rate, s.marginMs]))
    .digest('base64url');
  const takeKeys = [
    'rate',
    'rate-peers',
    'rate-first-seen',
    'rate-roster',
    'rate-pause',
    'rate-handback',
  ].map((name) => `${s.keyPrefix}${name}:${id}`);
  const [, peersKey, , , pauseKey, handBackKey] = takeKeys as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  /** Redis's clock minus ours, from the answer of the shortest round trip lately. */
  let offset = 0;
  let offsetRoundTrip = Number.POSITIVE_INFINITY;
  let offsetLearnedAt = Number.NEGATIVE_INFINITY;
  /**
   * The roster of the last answer: how many processes, and where this one stands (-1: not in
   * it yet). Before any answer the process knows of no other and counts as alone.
   */
  let roster = { peers: 1, rank: 0 };
  let mode: Mode = { kind: 'shared' };
  /** The next own cell this process may use (its index on the grid). */
  let nextOwnCell = Number.NEGATIVE_INFINITY;
  /** The end of the last 429's pause this process knows of, by Redis's clock. */
  let pausedUntil = Number.NEGATIVE_INFINITY;
  let handingBack: Promise<void> | undefined;
  /** The end of the last hand-back: own cells before it stay good after the hand-back ended. */
  let handBackEnd = Number.NEGATIVE_INFINITY;

  const redisNow = () => Date.now() + offset;

  function learnOffset(now: number, asked: number, answered: number): void {
    // An answer blurs the offset by up to half its round trip, and a busy process's answers
    // come late: the processes' own cells line up only on their sharpest estimates.
    const roundTrip = answered - asked;
    if (roundTrip > offsetRoundTrip && answered - offsetLearnedAt < OFFSET_TTL_MS) return;
    offset = now - (asked + answered) / 2;
    offsetRoundTrip = roundTrip;
    offsetLearnedAt = answered;
  }

  /** Waits until `at` (Redis's clock); false when it got there more than half a margin late. */
  async function waitUntil(at: number, signal: AbortSignal): Promise<boolean> {
    const ms = at - redisNow();
    if (ms > 0) await scope.sleep(ms, signal);
    // Later than that, the call could reach the server bunched with the next cell's.
    return redisNow() - at <= s.marginMs / 2;
  }

  /**
   * The next cell of this process from `from` on (Redis's clock), reserved for one call;
   * undefined when the roster has no place for it.
   */
  function ownCell(from: number): number | undefined {
    const { peers, rank } = roster;
    if (rank < 0 || rank >= peers) return undefined;
    let cell = Math.max(Math.ceil(from / intervalMs), nextOwnCell);
    cell += (((rank - cell) % peers) + peers) % peers;
    nextOwnCell = cell + peers;
    return cell * intervalMs;
  }

  /** A slot by the mode of the moment: shared, or an own cell while Redis is away or hands back. */
  async function take(signal: AbortSignal): Promise<RateSlot> {
    for (let retakes = 0; ;) {
      if (s.connection.degraded) goAlone();
      else if (mode.kind === 'alone') await handBack();
      const current = mode;
      if (current.kind === 'shared') return takeShared(signal);
      const from = Math.max(redisNow(), pausedUntil, current.kind === 'alone' ? current.from : 0);
      const at = ownCell(from);
      if (current.kind === 'handing-back' && (at === undefined || at >= current.until)) {
        // Past the hand-back every slot comes from Redis again; it grants none before the end.
        mode = { kind: 'shared' };
        return takeShared(signal);
      }
      if (at === undefined) {
        // No place in the roster (the process joined lately): wait for Redis to come back.
        await scope.sleep(PROBE_MS, signal);
        continue;
      }
      const onTime = await waitUntil(at, signal);
      // Redis went away again meanwhile, or came back with a hand-back that ends before the
      // cell: the cell no longer belongs to this process alone.
      if (mode !== current && (mode.kind === 'alone' || at >= handBackEnd)) continue;
      if (onTime || retakes === MAX_RETAKES) return BOOKED;
      retakes += 1;
    }
  }

  /** Learns when sharing resumes, once for all the calls waiting; stays alone if Redis fails. */
  function handBack(): Promise<void> {
    handingBack ??= (async () => {
      const away = mode.kind === 'alone' ? mode.from - horizonMs - intervalMs : redisNow();
      const asked = Date.now();
      // Without the caller's signal: the answer serves every call waiting for it.
      const answer = await s.connection.run(() =>
        s.connection.script(HAND_BACK, [handBackKey, peersKey], [s.handBackMs, away.toFixed(3)]),
      );
      if (answer === UNAVAILABLE) return;
      const [until, now] = (answer as [string, string]).map(Number) as [number, number];
      learnOffset(now, asked, Date.now());
      handBackEnd = until;
      mode = { kind: 'handing-back', until };
    })().finally(() => (handingBack = undefined));
    return handingBack;
  }

  function goAlone(): void {
    if (mode.kind === 'alone') return;
    // Every slot Redis granted lies within the horizon of the moment it went away; the first
    // own cell is an interval clear of the last of them.
    mode = { kind: 'alone', from: s.connection.degradedAt + offset + horizonMs + intervalMs };
  }

  async function takeShared(signal: AbortSignal): Promise<RateSlot> {
    for (let retakes = 0; ;) {
      const asked = Date.now();
      const answer = await s.connection.run(
        () =>
          s.connection.script(TAKE, takeKeys, [
            intervalMs,
            s.processId,
            PEER_TTL_MS,
            horizonMs,
            EPOCH_MS,
          ]),
        signal,
      );
      if (answer === UNAVAILABLE) {
        // Also when the fleet was closed, which leaves it not degraded: own cells, not a loop.
        goAlone();
        return take(signal);
      }
      const [granted, slot, peers, rank, now] = (answer as (number | string)[]).map(Number) as [
        number,
        number,
        number,
        number,
        number,
      ];
      learnOffset(now, asked, Date.now());
      roster = { peers, rank };
      if (granted === 0) {
        // Beyond the horizon: ask again when the slot comes within it.
        await waitUntil(slot - horizonMs, signal);
        continue;
      }
      // A slot missed by more than half the margin (the process was short of CPU, or Redis
      // answered late) would reach the server bunched with the calls after it: take a new one.
      if ((await waitUntil(slot, signal)) || retakes === MAX_RETAKES) return BOOKED;
      retakes += 1;
    }
  }

  return {
    take,
    pause(ms) {
      pausedUntil = Math.max(pausedUntil, redisNow() + ms);
      if (s.connection.degraded) return;
      // Best effort: a Redis that fails here degrades the fleet, and the pause holds locally.
      void s.connection
        .run(() => s.connection.script(PAUSE, [pauseKey], [ms]))
        .catch(() => undefined);
    },
  };
}
