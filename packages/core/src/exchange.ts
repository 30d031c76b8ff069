import type { RequestBody } from './pipeline-request.js';

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

/** Thrown by a sender when a body passes `maxResponseBytes`; the pipeline turns it into an `ApiError`. */
export class ResponseTooLarge extends Error {
  readonly status: number;
  readonly headers: Headers;

  constructor(status: number, headers: Headers, limit: number) {
    super(`the response body is larger than ${limit} bytes`);
    this.status = status;
    this.headers = headers;
  }
}

/** An empty body, shared: nothing ever writes into it. */
export const NO_BYTES = new Uint8Array(0);
