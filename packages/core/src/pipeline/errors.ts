import type { AuthScheme } from '@partner-apis/auth';
import { apiErrorFromResponse, parseRetryAfter, type ApiError } from '@partner-apis/errors';
import { parseJsonBody, unusableAnswer } from '../transport/buffered-response.js';
import type { Answer, RequestBody } from '../transport/exchange.js';
import { attemptFailed, type InFlight, type Step } from './call.js';

/** What an answer needs to become an error: which secrets to scrub from an echo, and the time. */
export interface ErrorSettings {
  /** Lower-case names of the headers that carry credentials. */
  readonly secretHeaderNames: readonly string[];
  readonly auth: AuthScheme | undefined;
  readonly clock: () => number;
}

/** The values of the credential headers sent, to scrub them from an error body. */
function secretValues(headers: Headers, names: readonly string[]): string[] {
  const values: string[] = [];
  for (const name of names) {
    const value = headers.get(name);
    if (value === null) continue;
    values.push(value);
    const space = value.indexOf(' ');
    if (space !== -1) values.push(value.slice(space + 1));
  }
  return values;
}

function parsedJsonBody(body: RequestBody | undefined, headers: Headers): unknown {
  if (body === undefined || !(headers.get('content-type') ?? '').includes('json')) return undefined;
  let text: string;
  if (typeof body === 'string') text = body;
  else if (body instanceof ArrayBuffer || ArrayBuffer.isView(body))
    text = new TextDecoder().decode(body);
  else return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * What an error built from an answer needs of the request: its JSON body (for the causes'
 * pointers), the secrets it carried (to scrub from an echo), and the time (for `Retry-After`).
 */
export function errorContext(s: ErrorSettings, call: InFlight) {
  return {
    requestBody: parsedJsonBody(call.body, call.headers),
    secrets: [
      ...secretValues(call.headers, s.secretHeaderNames),
      ...(s.auth?.secretValues?.() ?? []),
    ],
    now: s.clock(),
  };
}

/** The typed error of a non-2xx answer, scrubbed of the secrets the request carried. */
function httpError(s: ErrorSettings, call: InFlight, answer: Answer): ApiError {
  return apiErrorFromResponse({
    response: answer,
    text: new TextDecoder().decode(answer.bytes),
    request: call.request,
    ...errorContext(s, call),
  });
}

/**
 * The step that judges each answer: a 2xx has its JSON body parsed (once); a body that does not
 * parse, a status that is not HTTP, and any non-2xx become typed errors, marked with what the
 * attempt came to, so the retry step can decide on them (and return the answer as it is where
 * the policy does not throw HTTP errors).
 */
export function errorsStep(s: ErrorSettings): Step {
  return async (call, next) => {
    const { answer } = await next(call);
    const { status } = answer;
    if (status < 200 || status > 599) {
      const why = `answered with status ${status}, which is not an HTTP status (200–599)`;
      throw attemptFailed(unusableAnswer(status, why, call.request), { kind: 'fatal' });
    }
    if (status < 300) {
      const json = parseJsonBody(answer);
      if (json !== null) return { answer, json };
      const why =
        `answered ${status} with a JSON body that does not parse ` +
        `(${answer.bytes.byteLength} bytes; cut short in transit?)`;
      throw attemptFailed(unusableAnswer(status, why, call.request), {
        kind: 'answer',
        status,
        malformed: true,
      });
    }
    const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'), s.clock());
    throw attemptFailed(httpError(s, call, answer), {
      kind: 'answer',
      status,
      retryAfterMs,
      answer,
    });
  };
}
