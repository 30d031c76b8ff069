import { NO_BYTES, ResponseTooLarge, headOf, type Exchange, type Send } from './exchange.js';
import { publicHeaders } from './header-map.js';

/**
 * Reads a `fetch` response's body whole, counting the decoded bytes as they arrive; past
 * `limit` it cancels the body (which ends the exchange) and throws `ResponseTooLarge`.
 */
async function readBody(response: Response, limit: number): Promise<Uint8Array> {
  const { body } = response;
  if (body === null) return NO_BYTES;
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const identity = !response.headers.has('content-encoding');
  if (identity && declared > limit) {
    await body.cancel().catch(() => undefined);
    throw new ResponseTooLarge(
      response.status,
      response.headers,
      limit,
      NO_BYTES,
      response.statusText,
    );
  }
  // A declared length within the limit cannot be passed (the transport enforces it), so the
  // body can be read at once, which is what fast transports optimise for.
  if (identity && Number.isSafeInteger(declared))
    return new Uint8Array(await response.arrayBuffer());
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      const head = headOf([...chunks, value]);
      throw new ResponseTooLarge(
        response.status,
        response.headers,
        limit,
        head,
        response.statusText,
      );
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * A sender over any `fetch` (the global one, `@partner-apis/transport-undici`, a test double).
 * It asks `fetch` not to follow redirects: the pipeline follows them itself.
 */
export function createFetchSend(fetch: typeof globalThis.fetch): Send {
  return async (exchange: Exchange) => {
    const { url, method, headers, body, signal } = exchange;
    const response = await fetch(url, {
      method,
      // A real `Headers`: any `fetch` takes one, whatever it makes of other objects.
      headers: publicHeaders(headers),
      body,
      signal,
      redirect: 'manual',
    });
    exchange.headersReceived = true;
    exchange.onWritten?.();
    const bytes = await readBody(response, exchange.maxResponseBytes);
    return {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      bytes,
    };
  };
}
