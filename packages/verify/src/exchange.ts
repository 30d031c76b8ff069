import type { Pace } from './types.js';

/** One request as sent, without its credentials. */
export interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
}

/** One answer, read whole. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON; `undefined` otherwise. */
  json: unknown;
  /** Whether the body parsed as JSON. */
  isJson: boolean;
}

/** The largest body read; more than a few pages of a collection is not needed to judge it. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** How long one exchange may take. */
const EXCHANGE_TIMEOUT_MS = 30_000;

/**
 * Calls per second of a pace: a tier of `tiers`, or the caller's own rate.
 *
 * @example
 * callsPerSecond('silver', { bronze: 1, silver: 10, gold: 100 }); // 10
 */
export function callsPerSecond(pace: Pace, tiers: Readonly<Record<string, number>>): number {
  const rate = typeof pace === 'string' ? tiers[pace] : pace.requestsPerSecond;
  if (rate === undefined || !(rate > 0) || !Number.isFinite(rate)) {
    throw new TypeError(
      `the pace must be one of ${Object.keys(tiers).join(', ')} or a positive rate`,
    );
  }
  return rate;
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function readCapped(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new Error(`the answer is larger than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * Sends raw HTTP requests of one service, one at a time and evenly spaced at its pace, so that
 * what an answer shows is the server's and never a client's interpretation.
 *
 * @example
 * const answer = await new Exchanger(1, signal).send({ method: 'GET', url, headers: {} });
 */
export class Exchanger {
  readonly #intervalMs: number;
  readonly #signal: AbortSignal | undefined;
  #nextAt = 0;

  constructor(requestsPerSecond: number, signal: AbortSignal | undefined) {
    this.#intervalMs = 1000 / requestsPerSecond;
    this.#signal = signal;
  }

  /** Sends one request; redirects are not followed, so credentials never leave the origin. */
  async send(request: Sent): Promise<Answer> {
    const wait = this.#nextAt - performance.now();
    if (wait > 0) await delay(wait, this.#signal);
    this.#signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(EXCHANGE_TIMEOUT_MS);
    const signal = this.#signal ? AbortSignal.any([this.#signal, timeout]) : timeout;
    try {
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal,
      });
      const text = await readCapped(response);
      let json: unknown;
      let isJson = false;
      try {
        json = JSON.parse(text);
        isJson = true;
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json, isJson };
    } finally {
      // Counted from the end of the exchange, so the server never sees two inside one interval.
      this.#nextAt = performance.now() + this.#intervalMs;
    }
  }
}
