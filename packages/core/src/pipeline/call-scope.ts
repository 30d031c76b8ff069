import { TimeoutError, type FailedRequest } from '@partner-apis/errors';

/** The calls following one caller signal, and the listener they share on it. */
interface Followers {
  readonly scopes: Set<CallScope>;
  readonly onAbort: () => void;
}

/**
 * The abort signal of one call. It aborts when the caller's signal does (with the caller's
 * reason), when the overall deadline passes (with a `TimeoutError`), or when the attempt in
 * progress times out. Every wait of the call (rate limiter, token, backoff, the exchange
 * itself) listens to `signal`, or, cheaper, to `onAbort`. Creating abort signals is costly in
 * Node, so the controller is made only when someone asks for `signal`, and one serves the
 * whole call unless an attempt times out: then a fresh one replaces it.
 */
export class CallScope {
  /**
   * The calls in progress of each caller signal, and the one `abort` listener they share: a
   * listener per call would make Node warn of a leak past ten calls in flight (`fetch` raises
   * the signal's limit instead, which we cannot do in every runtime). The listener goes when
   * the last of them ends, so a signal that outlives many calls keeps none of theirs.
   */
  static readonly #following = new WeakMap<AbortSignal, Followers>();

  static #follow(caller: AbortSignal, scope: CallScope): void {
    let followers = CallScope.#following.get(caller);
    if (followers === undefined) {
      const scopes = new Set<CallScope>();
      const onAbort = () => {
        CallScope.#following.delete(caller);
        for (const follower of scopes) follower.#end(caller.reason);
        scopes.clear();
      };
      caller.addEventListener('abort', onAbort, { once: true });
      followers = { scopes, onAbort };
      CallScope.#following.set(caller, followers);
    }
    followers.scopes.add(scope);
  }

  static #unfollow(caller: AbortSignal, scope: CallScope): void {
    const followers = CallScope.#following.get(caller);
    if (followers === undefined || !followers.scopes.delete(scope)) return;
    if (followers.scopes.size > 0) return;
    caller.removeEventListener('abort', followers.onAbort);
    CallScope.#following.delete(caller);
  }

  #controller: AbortController | undefined;
  /** The one listener of the exchange in progress, when it listens through `onAbort`. */
  #listener: ((reason: unknown) => void) | undefined;
  /** Why the attempt in progress was aborted, while it is. */
  #attemptReason: unknown;
  readonly #caller: AbortSignal | undefined;
  readonly #deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  #attemptTimer: ReturnType<typeof setTimeout> | undefined;
  /** Why the call ended early: the caller's reason or the deadline's `TimeoutError`. */
  #ended = false;
  #reason: unknown;
  /** The attempt in progress timed out. */
  attemptTimedOut = false;
  /** The deadline by the pipeline's clock. */
  readonly deadline: number;
  /** The attempt in progress, for the message of a deadline error. */
  current: FailedRequest;

  constructor(
    caller: AbortSignal | undefined,
    totalMs: number,
    now: number,
    request: FailedRequest,
  ) {
    this.#caller = caller;
    this.deadline = now + totalMs;
    this.current = request;
    if (caller?.aborted) {
      this.#end(caller.reason);
      return;
    }
    this.#deadlineTimer = setTimeout(() => {
      this.#end(new TimeoutError({ request: this.current, timeoutMs: totalMs, scope: 'total' }));
    }, totalMs);
    if (caller !== undefined) CallScope.#follow(caller, this);
  }

  #end(reason: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#reason = reason;
    this.#abort(reason);
  }

  #abort(reason: unknown): void {
    this.#attemptReason = reason;
    this.#controller?.abort(reason);
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.(reason);
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#attemptReason !== undefined) this.#controller.abort(this.#attemptReason);
    }
    return this.#controller.signal;
  }

  /**
   * Calls `listener` once if the call or the attempt in progress is aborted (at once if it is
   * already); one listener at a time. Returns what stops listening.
   */
  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.#attemptReason !== undefined) {
      listener(this.#attemptReason);
      return () => undefined;
    }
    this.#listener = listener;
    return () => {
      if (this.#listener === listener) this.#listener = undefined;
    };
  }

  /** True once the caller aborted or the deadline passed; `reason` says which. */
  get ended(): boolean {
    return this.#ended;
  }

  get reason(): unknown {
    return this.#reason;
  }

  /** Starts the per-attempt timeout. */
  startAttempt(attemptMs: number): void {
    this.attemptTimedOut = false;
    this.#attemptTimer = setTimeout(() => {
      this.attemptTimedOut = true;
      this.#abort(new DOMException('attempt timed out', 'TimeoutError'));
    }, attemptMs);
  }

  /** Stops the per-attempt timeout; a fresh signal replaces one a timed-out attempt aborted. */
  endAttempt(): void {
    clearTimeout(this.#attemptTimer);
    this.#listener = undefined;
    if (this.attemptTimedOut && !this.#ended) {
      this.#controller = undefined;
      this.#attemptReason = undefined;
    }
  }

  /** Ends the call's timers and stops listening to the caller's signal; the call is over. */
  dispose(): void {
    clearTimeout(this.#deadlineTimer);
    clearTimeout(this.#attemptTimer);
    if (this.#caller !== undefined) CallScope.#unfollow(this.#caller, this);
  }
}
