import type { IncomingMessage } from 'node:http';
import { parse as parseForm } from 'node:querystring';
import type { BodyModel } from '@partner-apis/spec-model';
import type { ErrorCause } from './reply.js';

/** Bodies above this size are refused; no documented request comes close. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The body as text, or `undefined` once it grows past `MAX_BODY_BYTES`. */
export function readBodyText(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        request.removeAllListeners('data');
        request.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** JSON bodies nesting deeper than this are refused; no documented request comes close. */
const MAX_JSON_DEPTH = 64;

/** The deepest nesting of arrays and objects in JSON text, counting only outside strings. */
function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** Whether the Content-Type header names the operation's media type. */
export function hasMediaType(contentType: string | undefined, body: BodyModel): boolean {
  if (contentType === undefined) return false;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return body.mediaType === 'application/json'
    ? type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
    : type === body.mediaType;
}

/**
 * Parses the text of a request body as JSON or as a form. Form fields whose encoding joins
 * several values (the scopes of a token request) become lists, so the schema can check each.
 */
export function parseBody(
  text: string,
  body: BodyModel,
): { value: unknown } | { cause: ErrorCause } {
  if (body.mediaType === 'application/x-www-form-urlencoded') {
    const form: Record<string, unknown> = { ...parseForm(text) };
    for (const [field, separator] of Object.entries(body.separators ?? {})) {
      const value = form[field];
      if (typeof value === 'string') form[field] = value.split(separator).filter((s) => s !== '');
    }
    return { value: form };
  }
  // Validating a deeply nested value recurses once per level; refuse it before it can overflow.
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    return {
      cause: {
        code: 'too_deep',
        message: `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`,
        field: '',
      },
    };
  }
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { cause: { code: 'parse', message: 'The request body is not valid JSON.', field: '' } };
  }
}
