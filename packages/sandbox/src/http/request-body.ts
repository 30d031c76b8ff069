import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { parse as parseForm } from 'node:querystring';
import type { BodyModel } from '@partner-apis/spec-model';
import type { ErrorCause } from './reply.js';

/** Bodies above this size are refused; no documented request comes close. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The body as text, or `undefined` once it grows past `MAX_BODY_BYTES`. */
export async function readBodyText(request: IncomingMessage): Promise<string | undefined> {
  return (await readBody(request))?.toString('utf8');
}

/** The body's bytes, or `undefined` once it grows past `MAX_BODY_BYTES`. */
export function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
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
    request.on('end', () => resolve(Buffer.concat(chunks)));
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

/** The cookies of a request by name, their values decoded. */
export function cookiesOf(headers: IncomingHttpHeaders): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of (headers.cookie ?? '').split(';')) {
    const equals = pair.indexOf('=');
    if (equals <= 0) continue;
    const value = pair.slice(equals + 1).trim();
    try {
      cookies[pair.slice(0, equals).trim()] = decodeURIComponent(value);
    } catch {
      cookies[pair.slice(0, equals).trim()] = value;
    }
  }
  return cookies;
}

/** The value of an API key where its scheme puts it: a header, a query parameter or a cookie. */
export function apiKeyOf(
  scheme: { in: string; name: string },
  headers: IncomingHttpHeaders,
  query: URLSearchParams,
): string | undefined {
  const value =
    scheme.in === 'query'
      ? query.get(scheme.name)
      : scheme.in === 'cookie'
        ? cookiesOf(headers)[scheme.name]
        : headers[scheme.name.toLowerCase()];
  return typeof value === 'string' ? value : undefined;
}

/** Whether the Content-Type header names the operation's media type (a `*` range matches any). */
export function hasMediaType(contentType: string | undefined, body: BodyModel): boolean {
  if (contentType === undefined) return false;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  if (body.kind === 'json') {
    return (
      type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
    );
  }
  const [range, sub] = body.mediaType.toLowerCase().split('/');
  return sub === '*' ? type.startsWith(`${range}/`) || range === '*' : type === body.mediaType;
}

/**
 * Parses a request body as its media type says: JSON, a form, multipart form data (a file part
 * as its file name, which a `format: binary` schema takes), text, or bytes (not parsed). Form
 * fields whose encoding joins several values (the scopes of a token request) become lists, so
 * the schema can check each.
 */
export async function parseBody(
  bytes: Buffer,
  contentType: string,
  body: BodyModel,
): Promise<{ value: unknown } | { cause: ErrorCause }> {
  if (body.kind === 'binary') return { value: bytes };
  const text = bytes.toString('utf8');
  if (body.kind === 'text') return { value: text };
  if (body.kind === 'multipart') {
    try {
      const form = await new Response(bytes, {
        headers: { 'content-type': contentType },
      }).formData();
      const value: Record<string, unknown> = {};
      for (const [name, part] of form) {
        const item = typeof part === 'string' ? part : part.name;
        const list = body.files?.includes(name) && Array.isArray(value[name]) ? value[name] : null;
        value[name] = list === null ? item : [...(list as unknown[]), item];
      }
      return { value };
    } catch {
      return {
        cause: {
          code: 'parse',
          message: 'The request body is not valid multipart form data.',
          field: '',
        },
      };
    }
  }
  if (body.kind === 'form') {
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
