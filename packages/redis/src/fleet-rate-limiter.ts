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

/**
 * A process counts as a peer this long after its last slot; for as long, Redis keeps its cells
 * free once it has been quiet for a horizon and an interval, in case it lost Redis alone.
 */
const PEER_TTL_MS = 5000;
/**
 * A roster takes effect this long after Redis wrote it: a process's last answer then tells it
 * every roster of the next 10 s, so processes whose last answers differ agree on every cell.
 */
const ROSTER_DELAY_MS = 10_000;
/** How long after one roster Redis may write the next, so that few wait to take effect. */
const ROSTER_SPACING_MS = 1000;
/** How often a process with no cell of its own soon looks whether Redis is back. */
const PROBE_MS = 250;
/** How fast two clocks may drift apart: NTP slews a clock by at most 500 ppm. */
const MAX_DRIFT = 0.0005;
/** `Date.now()` counts whole milliseconds: the moment it reads lies within the next one. */
const TICK_MS = 1;
/** How many cells one take looks through for a free one. */
const MAX_CELLS = 256;

/** Redis's clock in ms, with its microseconds: every script starts with it. */
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
`;

/**
 * `epoch`: when Redis's data for the scope were made (in `key`), kept for a day after the last
 * call. An answer that tells of another epoch than the last one comes from a Redis that lost
 * them meanwhile (a restart, a flush), whatever the connection saw.
 */
const EPOCH = (key: string) => `
local epoch = redis.call('GET', ${key}) or string.format('%.3f', now)
redis.call('SET', ${key}, epoch, 'PX', 86400000)
`;

/**
 * The generic cell rate algorithm with no burst, in one atomic step: a call takes the slot
 * `max(now, tat)` (by Redis's clock) and moves the theoretical arrival time `tat` one interval,
 * `(1000 + margin) / rate` ms, past it. So any `rate + 1` calls span at least `rate` intervals:
 * a second and the margin. A slot is reserved only up to a horizon ahead, so when Redis goes
 * away no grant lies further than that in the future; a caller told to wait longer asks again.
 *
 * It also keeps the rosters the processes fall back on while Redis is away: the processes seen
 * lately, sorted, each roster taking effect `delay` after it was written, one written at most
 * every `spacing`. Time is cut into cells one interval long; cell `k` belongs to the process of
 * rank `k mod n` in the roster in effect at its start. A process quiet for `quiet` ms (a horizon
 * and an interval) may have lost Redis alone and be using its cells, so no other process is
 * granted a slot within an interval of them until it is `ttl` ms quiet; it may take them itself.
 *
 * KEYS: `tat` and the interval of the last grant; the processes by when they were last seen;
 * the rosters (`from|id,id,…`, by `from`); the end of a 429's pause; the end of a hand-back (the
 * first slot is an interval after it); the epoch. ARGV: interval, process id, ttl, horizon (also
 * the window), delay, quiet, max cells, spacing.
 * Answers { granted (0 or 1), slot, now, epoch, then for each roster: from (-1: none), size,
 * this process's rank in it (-1: none) }.
 */
const TAKE = `${NOW}${EPOCH('KEYS[6]')}
local interval = tonumber(ARGV[1])
local id = ARGV[2]
local ttl = tonumber(ARGV[3])
local quiet = tonumber(ARGV[6])
local maxCells = tonumber(ARGV[7])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - ttl)
local seen, ids = {}, {}
local flat = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
for i = 1, #flat, 2 do
  seen[flat[i]] = tonumber(flat[i + 1])
  ids[#ids + 1] = flat[i]
end
if seen[id] == nil then ids[#ids + 1] = id end
redis.call('ZADD', KEYS[2], string.format('%.3f', now), id)
redis.call('PEXPIRE', KEYS[2], ttl)
table.sort(ids)
local wanted = table.concat(ids, ',')
local rosters = {}
for _, entry in ipairs(redis.call('LRANGE', KEYS[3], 0, -1)) do
  local from, members = string.match(entry, '^([^|]*)|(.*)$')
  -- A roster whose successor is in effect is of no use any more.
  if #rosters > 0 and tonumber(from) <= now then rosters = {} end
  rosters[#rosters + 1] = { from = tonumber(from), ids = members }
end
local latest = rosters[#rosters]
local delay = tonumber(ARGV[5])
if wanted ~= (latest and latest.ids or '') and
    (latest == nil or now - (latest.from - delay) >= tonumber(ARGV[8])) then
  rosters[#rosters + 1] = { from = now + delay, ids = wanted }
end
redis.call('DEL', KEYS[3])
for _, roster in ipairs(rosters) do
  redis.call('RPUSH', KEYS[3], string.format('%.3f', roster.from) .. '|' .. roster.ids)
  local list = {}
  for member in string.gmatch(roster.ids, '[^,]+') do list[#list + 1] = member end
  roster.list = list
end
redis.call('PEXPIRE', KEYS[3], ttl + 2 * delay)
local function keeper(k)
  local at = k * interval
  local roster = nil
  for _, candidate in ipairs(rosters) do
    if at >= candidate.from then roster = candidate end
  end
  if roster == nil or #roster.list == 0 then return nil end
  local owner = roster.list[(k % #roster.list) + 1]
  local last = seen[owner]
  if last ~= nil and at >= last + quiet and at < last + ttl then return owner end
  return nil
end
local function other(k)
  local owner = keeper(k)
  return owner ~= nil and owner ~= id
end
local base = math.max(now, tonumber(redis.call('GET', KEYS[4]) or '0'),
  tonumber(redis.call('GET', KEYS[5]) or '0') + interval)
local state = redis.call('HMGET', KEYS[1], 'tat', 'interval')
local tat = tonumber(state[1] or '0')
local last = tonumber(state[2] or ARGV[1])
-- A stricter rate than the last grant's (a client declared a stricter tier): the calls granted
-- before count in its window, so its first slot comes a window of it after the last of them.
if interval > last then tat = tat - last + tonumber(ARGV[4]) end
local slot = math.max(base, tat)
local k = math.floor(slot / interval)
if other(k) or (slot > k * interval and other(k + 1)) then
  k = math.ceil(slot / interval)
  local last = k + maxCells
  while k < last and other(k) do k = k + 1 end
  slot = k * interval
end
if seen[id] ~= nil then
  local last = math.min(math.ceil(base / interval) + maxCells, math.ceil(slot / interval))
  for j = math.ceil(base / interval), last - 1 do
    if keeper(j) == id then
      slot = j * interval
      break
    end
  end
end
local granted = 0
if slot - now <= tonumber(ARGV[4]) then
  granted = 1
  tat = math.max(tat, slot + interval)
  redis.call('HSET', KEYS[1], 'tat', string.format('%.3f', tat), 'interval', ARGV[1])
  redis.call('PEXPIRE', KEYS[1], math.ceil(tat - now) + 1000)
end
local answer = { granted, string.format('%.3f', slot), string.format('%.3f', now), epoch }
for _, roster in ipairs(rosters) do
  local rank = -1
  for i, member in ipairs(roster.list) do
    if member == id then rank = i - 1 end
  end
  answer[#answer + 1] = string.format('%.3f', roster.from)
  answer[#answer + 1] = #roster.list
  answer[#answer + 1] = rank
end
return answer
`;

/**
 * When sharing resumes after this process was away (ARGV: the hand-back's length, the process
 * id, the start of its last own cell, whether any process may hold cells now, the peer ttl, the
 * horizon, the epoch of its last answer). When Redis kept its data and saw the process within
 * the ttl, it kept the cells of every process away free: sharing resumes at once, an interval
 * after the last own cell. When Redis lost them (a restart), the slots it granted before may
 * still be ahead, up to a horizon: the first process back sets the end of a hand-back a horizon
 * on, or ARGV[1] ms when processes may hold cells: until then every process keeps to its own
 * cells and no shared slot is granted, since processes still away cannot see the shared ones.
 * KEYS: the hand-back's end, the peers, the epoch. Answers { hand-back end, now, epoch }.
 */
const HAND_BACK = `${NOW}${EPOCH('KEYS[3]')}
local ends = tonumber(redis.call('GET', KEYS[1]) or '0')
if ends <= now then
  local seen = tonumber(redis.call('ZSCORE', KEYS[2], ARGV[2]) or '-1')
  if epoch == ARGV[7] and seen > now - tonumber(ARGV[5]) then
    ends = math.max(ends, tonumber(ARGV[3]))
  else
    ends = now + math.max(tonumber(ARGV[6]), ARGV[4] == '1' and tonumber(ARGV[1]) or 0)
  end
  redis.call('SET', KEYS[1], string.format('%.3f', ends), 'PX', math.ceil(math.max(ends - now, 0)) + 1000)
end
return { string.format('%.3f', ends), string.format('%.3f', now), epoch }
`;

/** A 429's pause for the whole fleet: KEYS[1] holds its end, moved ARGV[1] ms on at least. */
const PAUSE = `${NOW}
local ends = now + tonumber(ARGV[1])
if ends > tonumber(redis.call('GET', KEYS[1]) or '0') then
  redis.call('SET', KEYS[1], string.format('%.3f', ends), 'PX', math.ceil(tonumber(ARGV[1])))
end
return 1
`;

/** How the limiter hands out slots now. */
type Mode =
  | { kind: 'shared' }
  /** Redis is away: own cells only, from `from` (Redis's clock) on. */
  | { kind: 'alone'; from: number }
  /** Redis is back: own cells from `from` until `until` (Redis's clock), then shared slots. */
  | { kind: 'handing-back'; from: number; until: number };

/** A roster as one answer told it: when it takes effect, its size, this process's rank. */
interface Roster {
  from: number;
  count: number;
  /** -1: this process is not in it. */
  rank: number;
}

/**
 * The limiter of one scope (client ID, service address, rate) shared through Redis. Calls of
 * every process go one interval apart, `(1000 + margin) / rate` ms, so no second as the server
 * sees it holds more than the rate. A call goes no sooner than its slot by Redis's clock, and
 * no later than half a margin after it, checked again right before its request is written: a
 * process that cannot be sure of that (it stalled, or its last answers came too slowly to tell
 * Redis's clock) takes a new slot. Processes of one client ID and service address share one
 * window whatever rate they declare; a stricter rate than the last grant's counts the calls
 * granted before.
 *
 * While Redis cannot be used, a process keeps to cells of its own: time (Redis's clock, as last
 * seen) is cut into cells one interval long, and cell `k` belongs to the process of rank `k mod n`
 * in the roster in effect at the cell, as the last answer told it; a roster takes effect 10 s
 * after Redis wrote it, so every process that had an answer in the last 10 s knows the same
 * one. The first own cell comes a horizon and an interval after the process lost Redis, clear
 * of every slot Redis granted; Redis keeps that process's cells free meanwhile, in case it lost
 * Redis alone. A process with no own cell (one that never had an answer, joined in the last
 * 10 s, or was quiet for longer than the peer ttl) waits for Redis. When Redis is back with its
 * data, sharing resumes at once; when it lost them, the processes keep to their own cells for a
 * hand-back period, so that those still away meet no shared slot. A 429's
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
  /** After this long without an answer, a process may be using its own cells. */
  const quietMs = horizonMs + intervalMs;
  const id = createHash('sha256')
    .update(JSON.stringify([scope.baseUrl, scope.clientId ?? '', s.marginMs]))
    .digest('base64url');
  const takeKeys = [
    'rate',
    'rate-peers',
    'rate-rosters',
    'rate-pause',
    'rate-handback',
    'rate-epoch',
  ].map((name) => `${s.keyPrefix}${name}:${id}`);
  const [, peersKey, , pauseKey, handBackKey, epochKey] = takeKeys as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  /**
   * Redis's clock minus ours lies within `[lo, hi]` as of `at` (our clock): an answer's time
   * was read by Redis between our asking and its answer. None before the first answer.
   */
  let offset: { lo: number; hi: number; at: number } | undefined;
  /** The rosters of the last answer, by when they take effect; none before any answer. */
  let rosters: Roster[] = [];
  /** When Redis last answered this process, by Redis's clock. */
  let lastAnswer = Number.NEGATIVE_INFINITY;
  /** The epoch of Redis's data as its last answer told it; none before any answer. */
  let epoch = '';
  let mode: Mode = { kind: 'shared' };
  /** The next own cell this process may use (its index on the grid). */
  let nextOwnCell = Number.NEGATIVE_INFINITY;
  /** The start of the last own cell reserved for a call, by Redis's clock; 0 before any. */
  let lastOwn = 0;
  /** The end of the last 429's pause this process knows of, by Redis's clock. */
  let pausedUntil = Number.NEGATIVE_INFINITY;
  let handingBack: Promise<void> | undefined;
  /** The end of the last hand-back: own cells before it stay good after the hand-back ended. */
  let handBackEnd = Number.NEGATIVE_INFINITY;
  /** Once the fleet is closed, the process paces its calls alone at the whole rate. */
  let closedLimiter: RateLimiter | undefined;

  /** The clocks may have drifted apart since the offset was learned, by at most this much. */
  const drift = (now: number) => (offset === undefined ? 0 : MAX_DRIFT * (now - offset.at));
  /** The latest Redis's clock may read now: what a slot is checked against and pauses end by. */
  const redisNow = () => Date.now() + TICK_MS + (offset?.hi ?? 0) + drift(Date.now());
  /** The earliest Redis's clock may read now: no call goes before its slot by it. */
  const redisEarliest = () => Date.now() + (offset?.lo ?? 0) - drift(Date.now());

  function learnOffset(now: number, asked: number, answered: number): void {
    // The narrowest range both this answer and the earlier ones allow; a range they do not
    // share means a clock jumped, and this answer alone is right.
    const aged = drift(answered);
    const lo = Math.max(now - answered - TICK_MS, (offset?.lo ?? -Infinity) - aged);
    const hi = Math.min(now - asked, (offset?.hi ?? Infinity) + aged);
    offset =
      lo <= hi
        ? { lo, hi, at: answered }
        : { lo: now - answered - TICK_MS, hi: now - asked, at: answered };
  }

  /** Whether a call may still go at a slot at `at` (Redis's clock): at most half a margin late. */
  const onTime = (at: number) => redisNow() - at <= s.marginMs / 2;

  /** Waits until `at` (Redis's clock) is sure to have come; then whether it is not long gone. */
  async function waitUntil(at: number, signal: AbortSignal): Promise<boolean> {
    // Twice at most: a timer may fire a millisecond early.
    for (let sleeps = 0; sleeps < 2 && redisEarliest() < at; sleeps += 1) {
      await scope.sleep(at - redisEarliest(), signal);
    }
    // Later than that, the call could reach the server bunched with the next slot's.
    return onTime(at);
  }

  /**
   * The slot at `at` (Redis's clock), asked again right before the request is written: when
   * the process stalled past it meanwhile, a new one is taken and waited for.
   */
  function booked(at: number, signal: AbortSignal): RateSlot {
    let replacement: RateSlot | undefined;
    return {
      sent: () => replacement?.sent(),
      beforeWrite: () => {
        if (replacement !== undefined) return replacement.beforeWrite?.();
        if (onTime(at)) return undefined;
        return take(signal).then((slot) => {
          replacement = slot;
        });
      },
    };
  }

  /**
   * The start of the next cell of this process from `from` on (Redis's clock); undefined when
   * no roster it knows has a place for it.
   */
  function ownCell(from: number): number | undefined {
    if (!Number.isFinite(from)) return undefined;
    for (const [index, roster] of rosters.entries()) {
      if (roster.rank < 0) continue;
      let cell = Math.max(Math.ceil(Math.max(from, roster.from) / intervalMs), nextOwnCell);
      cell += (((roster.rank - cell) % roster.count) + roster.count) % roster.count;
      if (cell * intervalMs < (rosters[index + 1]?.from ?? Number.POSITIVE_INFINITY)) {
        return cell * intervalMs;
      }
    }
    return undefined;
  }

  /**
   * Whether a process may hold cells before `until`: false only when every roster written
   * since this process's last answer takes effect later, and none it knows of does sooner.
   */
  function cellsMayBeHeld(until: number): boolean {
    if (until >= lastAnswer + ROSTER_DELAY_MS) return true;
    return rosters.some((roster) => roster.count > 0 && roster.from <= until);
  }

  /** A slot by the mode of the moment: shared, or an own cell while Redis is away or hands back. */
  async function take(signal: AbortSignal): Promise<RateSlot> {
    for (;;) {
      if (s.connection.closed) {
        closedLimiter ??= scope.localLimiter(scope.rate);
        return closedLimiter.take(signal);
      }
      if (s.connection.degraded) goAlone();
      else if (mode.kind === 'alone') await handBack();
      const current = mode;
      if (current.kind === 'shared') return takeShared(signal);
      const from = Math.max(redisNow(), pausedUntil, current.from);
      const at = ownCell(from);
      if (current.kind === 'handing-back' && (at === undefined || at >= current.until)) {
        // Past the hand-back every slot comes from Redis again; it grants none before the end.
        mode = { kind: 'shared' };
        return takeShared(signal);
      }
      if (at === undefined || at - redisNow() > PROBE_MS) {
        // No cell of its own soon: look again shortly whether Redis is back.
        await scope.sleep(PROBE_MS, signal);
        continue;
      }
      // Reserved for this call before any wait, so that no other call of the process takes it.
      nextOwnCell = Math.round(at / intervalMs) + 1;
      lastOwn = Math.max(lastOwn, at);
      const missed = !(await waitUntil(at, signal));
      // Redis went away again meanwhile, or came back with a hand-back that ends before the
      // cell: the cell no longer belongs to this process alone.
      if (missed || (mode !== current && (mode.kind === 'alone' || at >= handBackEnd))) continue;
      return booked(at, signal);
    }
  }

  /** Learns when sharing resumes, once for all the calls waiting; stays alone if Redis fails. */
  function handBack(): Promise<void> {
    handingBack ??= (async () => {
      const asked = Date.now();
      // Own cells keep their bound from while Redis was away: slots granted before lie below it.
      const from = mode.kind === 'alone' ? mode.from : Infinity;
      const mayHold = cellsMayBeHeld(redisNow() + s.handBackMs) ? 1 : 0;
      // Without the caller's signal: the answer serves every call waiting for it.
      const answer = await s.connection.run(() =>
        s.connection.script(
          HAND_BACK,
          [handBackKey, peersKey, epochKey],
          [s.handBackMs, s.processId, lastOwn.toFixed(3), mayHold, PEER_TTL_MS, horizonMs, epoch],
        ),
      );
      if (answer === UNAVAILABLE) return;
      const [until, now] = (answer as [string, string, string]).map(Number) as [number, number];
      learnOffset(now, asked, Date.now());
      epoch = (answer as string[])[2]!;
      handBackEnd = until;
      mode = { kind: 'handing-back', from, until };
    })().finally(() => (handingBack = undefined));
    return handingBack;
  }

  function goAlone(): void {
    if (mode.kind === 'alone') return;
    // A command whose answer was lost may have reached Redis until the fleet saw it fail, so
    // Redis keeps this process's cells free from then on, and for the peer ttl after its
    // last answer only.
    const lostAt = s.connection.degradedAt + (offset?.hi ?? 0) + drift(s.connection.degradedAt);
    const from = lostAt < lastAnswer + PEER_TTL_MS ? lostAt + quietMs : Infinity;
    mode = { kind: 'alone', from };
  }

  async function takeShared(signal: AbortSignal): Promise<RateSlot> {
    for (;;) {
      const asked = Date.now();
      const answer = await s.connection.run(
        () =>
          s.connection.script(TAKE, takeKeys, [
            intervalMs,
            s.processId,
            PEER_TTL_MS,
            horizonMs,
            ROSTER_DELAY_MS,
            quietMs,
            MAX_CELLS,
            ROSTER_SPACING_MS,
          ]),
        signal,
      );
      if (answer === UNAVAILABLE) return take(signal);
      const [granted, slot, now, , ...roster] = (answer as (number | string)[]).map(Number) as [
        number,
        number,
        number,
        number,
        ...number[],
      ];
      learnOffset(now, asked, Date.now());
      const answered = String((answer as unknown[])[3]);
      if (epoch !== '' && answered !== epoch) {
        // Redis lost its data since its last answer (a restart, a flush): the slots it granted
        // before may lie up to a horizon ahead, and this one could meet them. Sharing resumes
        // as after an outage.
        mode = { kind: 'alone', from: redisNow() + quietMs };
        return take(signal);
      }
      epoch = answered;
      lastAnswer = now;
      rosters = [];
      for (let i = 0; i + 2 < roster.length; i += 3) {
        rosters.push({ from: roster[i]!, count: roster[i + 1]!, rank: roster[i + 2]! });
      }
      if (granted === 0) {
        // Beyond the horizon: ask again when the slot comes within it.
        await waitUntil(slot - horizonMs, signal);
        continue;
      }
      // A slot missed by more than half the margin (the process was short of CPU, or Redis
      // answered too late to tell its clock) would reach the server bunched with the calls
      // after it: take a new one, however often it takes.
      if (await waitUntil(slot, signal)) return booked(slot, signal);
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
