import { createHash } from 'node:crypto';
import { ConfigurationError } from '@partner-apis/errors';
import type { Redis } from 'ioredis';

/** Why the fleet stopped sharing. */
export type FleetDegradedReason = 'unreachable' | 'timeout' | 'error';

/** Reported when the processes stop sharing and each goes on with its local share. */
export interface FleetDegradedEvent {
  readonly reason: FleetDegradedReason;
  /** What Redis or the connection said; never a password or a token. */
  readonly message: string;
}

/** The hooks a fleet reports through; a hook that throws is ignored. */
export interface FleetEvents {
  /** Redis cannot be used: calls go on with the local fallback until it answers again. */
  onFleetDegraded?(event: FleetDegradedEvent): void;
  /** Redis answers again: the processes share the tier and the token again. */
  onFleetRestored?(): void;
}

/** Returned by `run` when Redis cannot be used now: the caller falls back to local state. */
export const UNAVAILABLE: unique symbol = Symbol('fleet unavailable');

/** How the fleet talks to Redis, with the fallback rules in one place. */
export interface FleetConnection {
  /**
   * Runs `command` within the fleet's timeout. Resolves `UNAVAILABLE` (and degrades the fleet)
   * when Redis does not answer in time or fails; rejects with the signal's reason on abort and
   * with a `ConfigurationError` when Redis refused the credentials.
   */
  run<T>(
    command: (client: Redis) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T | typeof UNAVAILABLE>;
  /** Runs a Lua script by its digest, loading it again when Redis lost it (after a restart). */
  script(
    lua: string,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<unknown>;
  readonly degraded: boolean;
  /** When the fleet last stopped sharing (`Date.now()`); -Infinity until it does. */
  readonly degradedAt: number;
  /** True once `close()` was called: nothing is sent to Redis any more. */
  readonly closed: boolean;
  close(): Promise<void>;
}

export interface ConnectionSettings {
  client: Redis;
  /** Whether `close` quits the client (only when the fleet created it). */
  owned: boolean;
  /** The option a refused password is reported under: `url` or `client`. */
  option: string;
  timeoutMs: number;
  /** How long commands wait for the first connection, which takes longer than a command. */
  connectTimeoutMs: number;
  probeIntervalMs: number;
  events: FleetEvents;
}

/** Redis answers these when the password or the user is wrong, or none was given. */
const REFUSED_CREDENTIALS = /WRONGPASS|NOAUTH|invalid password|invalid username-password/i;

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // Connection errors name the host and port, never the password; cut anything long anyway.
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function timeoutAfter(ms: number, signal: AbortSignal | undefined) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const promise = new Promise<'timeout'>((resolve, reject) => {
    timer = setTimeout(() => resolve('timeout'), ms);
    if (signal !== undefined) {
      onAbort = () => reject(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  const cancel = () => {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  };
  return { promise, cancel };
}

/**
 * Wraps one Redis client: every command is bounded by `timeoutMs`; the first failure degrades
 * the fleet (one `onFleetDegraded`), after which commands are not sent at all until a probe
 * (every `probeIntervalMs`) gets a PONG back and `onFleetRestored` is reported.
 */
export function createFleetConnection(s: ConnectionSettings): FleetConnection {
  let degraded = false;
  let degradedAt = Number.NEGATIVE_INFINITY;
  let closed = false;
  let refused: ConfigurationError | undefined;
  let connected = s.client.status === 'ready';
  let probe: ReturnType<typeof setInterval> | undefined;
  const digests = new Map<string, string>();

  function notify(hook: () => void): void {
    try {
      hook();
    } catch {
      // An event hook must not break a call.
    }
  }

  function degrade(reason: FleetDegradedReason, message: string): void {
    if (degraded || closed) return;
    degraded = true;
    degradedAt = Date.now();
    notify(() => s.events.onFleetDegraded?.({ reason, message }));
    probe = setInterval(() => void probeOnce(), s.probeIntervalMs);
    probe.unref();
  }

  async function probeOnce(): Promise<void> {
    if (!degraded || closed || s.client.status !== 'ready') return;
    const timer = timeoutAfter(s.timeoutMs, undefined);
    try {
      const answer = await Promise.race([s.client.ping(), timer.promise]);
      if (answer !== 'PONG' || !degraded || closed) return;
      degraded = false;
      clearInterval(probe);
      notify(() => s.events.onFleetRestored?.());
    } catch {
      // Still down: the next probe tries again.
    } finally {
      timer.cancel();
    }
  }

  const onError = (error: unknown) => {
    if (error instanceof Error && REFUSED_CREDENTIALS.test(error.message)) {
      refused ??= new ConfigurationError(
        s.option,
        'Redis refused the credentials (wrong password or user)',
      );
      if (s.owned) s.client.disconnect();
      return;
    }
    degrade('unreachable', describe(error));
  };
  // Without a listener, a connection error would be an unhandled 'error' event.
  s.client.on('error', onError);
  s.client.on('end', () => degrade('unreachable', 'the connection to Redis closed'));
  s.client.once('ready', () => (connected = true));

  async function run<T>(
    command: (client: Redis) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T | typeof UNAVAILABLE> {
    if (refused !== undefined) throw refused;
    if (degraded || closed) return UNAVAILABLE;
    signal?.throwIfAborted();
    const limit = connected ? s.timeoutMs : Math.max(s.timeoutMs, s.connectTimeoutMs);
    const timer = timeoutAfter(limit, signal);
    try {
      const result = await Promise.race([command(s.client), timer.promise]);
      if (result === 'timeout') {
        if (refused !== undefined) throw refused;
        degrade('timeout', `Redis did not answer within ${limit} ms`);
        return UNAVAILABLE;
      }
      return result;
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      if (refused !== undefined) throw refused;
      if (error instanceof Error && REFUSED_CREDENTIALS.test(error.message)) {
        onError(error);
        throw refused ?? error;
      }
      degrade('error', describe(error));
      return UNAVAILABLE;
    } finally {
      timer.cancel();
    }
  }

  async function script(lua: string, keys: readonly string[], args: readonly (string | number)[]) {
    const digest = digests.get(lua);
    if (digest === undefined) {
      // The first run sends the script itself, which also loads it: a command sent after it
      // on this connection then runs after it, as it would not behind a NOSCRIPT round trip.
      digests.set(lua, createHash('sha1').update(lua).digest('hex'));
      return s.client.eval(lua, keys.length, ...keys, ...args);
    }
    try {
      return await s.client.evalsha(digest, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return s.client.eval(lua, keys.length, ...keys, ...args);
    }
  }

  return {
    run,
    script,
    get degraded() {
      return degraded;
    },
    get degradedAt() {
      return degradedAt;
    },
    get closed() {
      return closed;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(probe);
      s.client.off('error', onError);
      if (!s.owned) return;
      try {
        await s.client.quit();
      } catch {
        s.client.disconnect();
      }
    },
  };
}
