import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/**
 * The error a body stream fails with when the connection breaks mid-body: the same shape
 * `fetch` uses (`TypeError: terminated`, the network error as `cause`), so code written for
 * `fetch` classifies it unchanged.
 */
function terminated(cause: unknown): TypeError {
  return new TypeError('terminated', { cause });
}

// Like fetch, tolerate a compressed body cut short instead of failing on the missing trailer.
const LENIENT = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };

function decoderFor(coding: string): NodeJS.ReadWriteStream | undefined {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip(LENIENT);
    case 'deflate':
      return createInflate(LENIENT);
    case 'br':
      return createBrotliDecompress({
        flush: constants.BROTLI_OPERATION_FLUSH,
        finishFlush: constants.BROTLI_OPERATION_FLUSH,
      });
    default:
      return undefined;
  }
}

/**
 * Decodes a body sent with `Content-Encoding`, as `fetch` does. Codings are undone in reverse
 * order; a coding this transport does not know leaves the body as received.
 */
export function decodeBody(body: Readable, contentEncoding: string | undefined): Readable {
  if (contentEncoding === undefined || contentEncoding === '' || contentEncoding === 'identity') {
    return body;
  }
  const codings = contentEncoding
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse();
  const decoders = codings.map(decoderFor);
  if (decoders.length === 0 || decoders.some((decoder) => decoder === undefined)) return body;
  const stages = decoders as NodeJS.ReadWriteStream[];
  // pipeline() destroys every stage when one fails, so the socket is released either way.
  pipeline([body, ...stages], () => undefined);
  return stages[stages.length - 1] as unknown as Readable;
}

/**
 * Wraps a Node stream as a web `ReadableStream` with backpressure: the Node stream pauses
 * while the web stream's queue is full and resumes when the reader pulls. Cancelling the web
 * stream destroys the Node stream, which releases the connection.
 *
 * @param signal when it has fired, a failing body reports its reason, as `fetch` does.
 */
export function toWebStream(
  body: Readable,
  signal: AbortSignal | undefined,
): ReadableStream<Uint8Array> {
  let finished = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        body.on('data', (chunk: Buffer) => {
          if (finished) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) body.pause();
        });
        body.once('end', () => {
          if (finished) return;
          finished = true;
          controller.close();
        });
        body.once('error', (error: unknown) => {
          if (finished) return;
          finished = true;
          controller.error(signal?.aborted ? signal.reason : terminated(error));
        });
      },
      pull() {
        body.resume();
      },
      cancel() {
        finished = true;
        // An 'error' follows the destroy; it is swallowed because the reader has gone.
        body.on('error', () => undefined);
        body.destroy();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}
