/** Any body `fetch` accepts. */
export type RequestBody = NonNullable<RequestInit['body']>;

/** One HTTP request as a sender puts it on the wire; redirects are never followed by a sender. */
export interface Exchange {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: RequestBody | undefined;
  /** Aborts with the call: a sender that can, listens through `onAbort`, which costs less. */
  readonly signal: AbortSignal;
  /** Calls `listener` once when the exchange is aborted (at once if it is); returns the undo. */
  readonly onAbort: (listener: (reason: unknown) => void) => () => void;
  /** Reading stops, and the exchange is aborted, once the decoded body passes this many bytes. */
  readonly maxResponseBytes: number;
  /** Set by the sender once the response headers arrived: a failure after it is mid-body. */
  headersReceived: boolean;
  /** Called by the sender once the request is on the wire (or, if it cannot tell, answered). */
  readonly onWritten: (() => void) | undefined;
  /**
   * Asked right before the request is written (the rate limiter's slot): `undefined` to write
   * now, or a promise to wait for before asking again. Senders over `fetch` cannot ask.
   */
  readonly beforeWrite?: (() => Promise<void> | undefined) | undefined;
}

/** A response whose body was read whole (and decoded) by the sender. */
export interface Answer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly bytes: Uint8Array;
}

/** Sends one exchange and reads its whole body; rejects as `fetch` does on network failures. */
export type Send = (exchange: Exchange) => Promise<Answer>;

/** An empty body, shared: nothing ever writes into it. */
export const NO_BYTES = new Uint8Array(0);

/** How much of an over-long body a `ResponseTooLarge` keeps: enough for an error body. */
export const TOO_LARGE_HEAD_BYTES = 4096;

/** The first `TOO_LARGE_HEAD_BYTES` of the chunks read so far, copied. */
export function headOf(chunks: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const chunk of chunks) {
    size = Math.min(TOO_LARGE_HEAD_BYTES, size + chunk.byteLength);
    if (size === TOO_LARGE_HEAD_BYTES) break;
  }
  if (size === 0) return NO_BYTES;
  const head = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    if (offset === size) break;
    const piece = chunk.subarray(0, size - offset);
    head.set(piece, offset);
    offset += piece.byteLength;
  }
  return head;
}

/**
 * Thrown by a sender when a body passes `maxResponseBytes`; the pipeline turns it into the
 * `ApiError` of its status, built from `head`, the start of the body, and saying it was cut.
 */
export class ResponseTooLarge extends Error {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  /** The decoded body's first bytes (at most `TOO_LARGE_HEAD_BYTES`); empty when none was read. */
  readonly head: Uint8Array;

  constructor(
    status: number,
    headers: Headers,
    limit: number,
    head: Uint8Array = NO_BYTES,
    statusText = '',
  ) {
    super(`the response body is larger than ${limit} bytes`);
    this.status = status;
    this.statusText = statusText;
    this.headers = headers;
    this.head = head;
  }
}
