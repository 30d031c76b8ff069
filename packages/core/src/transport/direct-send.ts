import { ResponseTooLarge, headOf, type Send } from './exchange.js';

/**
 * The key under which a `fetch` function offers the pipeline a sender of its own: a function
 * that takes a {@link SendKit} and returns a {@link Send}. Given such a `fetch`, a client sends
 * through that sender, skipping the `Request` and `Response` every `fetch` call builds and
 * reads back; anywhere else the function is still a plain `fetch`. A registered symbol, so a
 * transport offers one without importing core.
 */
export const SEND_KEY: unique symbol = Symbol.for('partner-apis.send');

/**
 * What the pipeline hands a direct sender: the errors it must throw that the pipeline tells apart
 * by their class, made by the very copy of core that will catch them.
 */
export interface SendKit {
  /**
   * The error to reject with once a body passes `exchange.maxResponseBytes`.
   *
   * @param read the decoded chunks read so far, the one that passed the limit included; none when
   * the declared length was already over the limit. Their start becomes the error's body.
   */
  tooLarge(
    status: number,
    statusText: string,
    headers: Headers,
    limit: number,
    read: readonly Uint8Array[],
  ): Error;
}

/** A `fetch` that offers a sender of its own under {@link SEND_KEY}. */
export interface DirectSendOffer {
  readonly [SEND_KEY]: (kit: SendKit) => Send;
}

const kit: SendKit = {
  tooLarge: (status, statusText, headers, limit, read) =>
    new ResponseTooLarge(status, headers, limit, headOf(read), statusText),
};

/** The sender `fetch` offers under {@link SEND_KEY}, or `undefined` when it offers none. */
export function directSendOf(fetch: unknown): Send | undefined {
  const offer = (fetch as Partial<DirectSendOffer> | null | undefined)?.[SEND_KEY];
  return typeof offer === 'function' ? offer(kit) : undefined;
}
