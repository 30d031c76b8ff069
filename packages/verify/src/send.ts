import { createClientPipeline, type ClientPipeline, type HttpAgentLike } from '@partner-apis/core';
import { createDefaultSend } from '@partner-apis/core/default-send';
import {
  SEND_KEY,
  type DirectSendOffer,
  type Send,
  type SendKit,
} from '@partner-apis/core/internal';
import { ApiError, ConfigurationError, ConnectionError, TimeoutError } from '@partner-apis/errors';
import type { Pace } from './types.js';

declare const __PACKAGE_VERSION__: string | undefined;

/** How the requests reach the network, as every client of the SDK takes it. */
export interface Transport {
  /** The `http.Agent` or `https.Agent` to send through, e.g. a proxy agent. */
  agent?: HttpAgentLike | undefined;
  /** The `fetch` to send with instead of the default transport; not together with `agent`. */
  fetch?: typeof globalThis.fetch | undefined;
  /** The caller's product token, sent first in `User-Agent`, e.g. `acme-ci/2.1`. */
  userAgent?: string | undefined;
  /** The headers the service's spec has its clients set themselves (`x-tracing`). */
  tracingHeaders?: { requestId?: string | undefined; conversationId?: string | undefined };
}

/** One request as verify sends it: its credentials are headers of its own. */
export interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
}

/** One answer, read whole, as the server sent it (the pipeline's errors do not change it). */
export interface Answer {
  status: number;
  /** The headers, by lower-case name. */
  headers: Record<string, string>;
  text: string;
  /** The parsed body when it is JSON; `undefined` otherwise. */
  json: unknown;
  /** Whether the body parsed as JSON. */
  isJson: boolean;
}

/** Why a request got no answer, in one line. */
export interface Failed {
  failed: string;
}

/** `partner-apis-verify/1.2.3 node/20.19`, after the caller's own token. */
function userAgent(own: string | undefined): string {
  const version = typeof __PACKAGE_VERSION__ === 'string' ? `/${__PACKAGE_VERSION__}` : '';
  const node = /^(\d+\.\d+)/.exec(process.versions.node)?.[1];
  return [own?.trim() || undefined, `partner-apis-verify${version}`, node && `node/${node}`]
    .filter(Boolean)
    .join(' ');
}

function parsed(text: string): Pick<Answer, 'json' | 'isJson'> {
  try {
    return { json: JSON.parse(text), isJson: true };
  } catch {
    return { json: undefined, isJson: false };
  }
}

/** What the server sent, before any step of the pipeline read it. */
type Wire = Pick<Answer, 'status' | 'headers' | 'text'>;

function wireOf(status: number, headers: Headers, text: string): Wire {
  const names: Record<string, string> = {};
  headers.forEach((value, name) => (names[name.toLowerCase()] = value));
  return { status, headers: names, text };
}

/**
 * The `fetch` a sender's pipeline sends with: the caller's (or the default transport, over
 * `agent`), keeping each answer as the server sent it, since the pipeline turns one with an
 * error status into an `ApiError` whose body is no longer the server's.
 */
function keepingAnswers(
  transport: Transport,
  keep: (wire: Promise<Wire>) => void,
): typeof globalThis.fetch {
  const given = transport.fetch;
  const offer = (given as Partial<DirectSendOffer> | undefined)?.[SEND_KEY];
  if (given !== undefined && typeof offer !== 'function') {
    return async (input, init) => {
      const response = await given(input, init);
      const copy = response.clone();
      keep(copy.text().then((text) => wireOf(copy.status, copy.headers, text)));
      return response;
    };
  }
  const direct = (kit: SendKit): Send => {
    const send = offer?.(kit) ?? createDefaultSend(transport.agent);
    return async (exchange) => {
      const answer = await send(exchange);
      const text = new TextDecoder().decode(answer.bytes);
      keep(Promise.resolve(wireOf(answer.status, answer.headers, text)));
      return answer;
    };
  };
  return Object.assign((() => Promise.reject(new Error('sent directly'))) as typeof fetch, {
    [SEND_KEY]: direct,
  });
}

/**
 * Why a request got no answer, in one line: the pipeline's error, which names the request and
 * its cause (`ECONNREFUSED`, `ENOTFOUND`), and when it names none, the causes below it (a TLS
 * error, say).
 */
function describeFailure(error: unknown): string {
  if (error instanceof ConnectionError && error.systemCode !== undefined) return error.message;
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    const text =
      typeof code === 'string' && !current.message.includes(code)
        ? `${current.message} (${code})`
        : current.message;
    // `fetch failed` says nothing its cause does not say better.
    if (text !== 'fetch failed' && !parts.some((part) => part.includes(text))) parts.push(text);
    current = current.cause;
  }
  return parts.join(': ') || String(error);
}

/** Sends the requests of one service. */
export interface Sender {
  send(request: Sent): Promise<Answer | Failed>;
}

/**
 * Sends the requests of one service through the client pipeline every command of the SDK uses
 * (its transport, proxy agent, timeouts, retries, redirects and typed errors), paced at the
 * service's tier. An HTTP error is an answer like any other; once a request of the service got
 * no answer, its later requests are not sent and fail for the same reason.
 *
 * @example
 * const sender = createSender('https://api.example.com/v1', 'bronze', {}, signal);
 * const answer = await sender.send({ method: 'GET', url, headers: {} });
 */
export function createSender(
  baseUrl: string,
  pace: Pace,
  transport: Transport,
  signal: AbortSignal | undefined,
): Sender {
  let kept: Promise<Wire> | undefined;
  const pipeline: ClientPipeline = createClientPipeline({
    baseUrl,
    rateLimit: pace,
    // Given with a `fetch` only for the pipeline to refuse the pair; alone, it is the transport's.
    agent: transport.fetch === undefined ? undefined : transport.agent,
    fetch: keepingAnswers(transport, (wire) => (kept = wire)),
    tracingHeaders: transport.tracingHeaders,
  });
  const agent = userAgent(transport.userAgent);
  let unreachable: string | undefined;
  return {
    async send(request) {
      signal?.throwIfAborted();
      if (unreachable !== undefined) return { failed: `not sent, as ${unreachable}` };
      kept = undefined;
      try {
        await pipeline.execute({
          method: request.method,
          url: request.url,
          headers: new Headers({ ...request.headers, 'user-agent': agent }),
          body: request.body,
          signal,
        });
      } catch (error) {
        signal?.throwIfAborted();
        if (error instanceof ConfigurationError) throw error;
        // An answer the pipeline made an error of is an answer like any other; one too large
        // to read whole is none.
        if (!(error instanceof ApiError && kept !== undefined)) return failure(error, request);
      }
      const wire = await kept!;
      return { ...wire, ...parsed(wire.text) };
    },
  };

  function failure(error: unknown, request: Sent): Failed {
    if (error instanceof ApiError) return { failed: `no answer read: ${error.message}` };
    const typed = error instanceof ConnectionError || error instanceof TimeoutError;
    // The pipeline's errors name the request; an error of another kind may not.
    const where = typed ? '' : `${request.method} ${request.url.split('?')[0]}: `;
    unreachable = `no answer: ${where}${describeFailure(error)}`;
    return { failed: unreachable };
  }
}
