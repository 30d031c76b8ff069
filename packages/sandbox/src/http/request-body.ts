import type { IncomingMessage } from 'node:http';
import { parse as parseForm } from 'node:querystring';
import type { OperationRequestBody } from '../spec/operations.js';
import type { ErrorCause } from './reply.js';

/** Bodies above this size are refused; no documented request comes close. */
export const MAX_BODY_BYTES = 1024 * 1024;

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

/** Whether the Content-Type header names the operation's media type. */
export function hasMediaType(contentType: string | undefined, body: OperationRequestBody): boolean {
  if (contentType === undefined) return false;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return body.mediaType === 'application/json'
    ? type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
    : type === body.mediaType;
}

/**
 * Parses the text of a request body as JSON or as a form. Form fields the spec encodes as
 * `spaceDelimited` become lists, so the schema can check every value.
 */
export function parseBody(
  text: string,
  body: OperationRequestBody,
): { value: unknown } | { cause: ErrorCause } {
  if (body.mediaType === 'application/x-www-form-urlencoded') {
    const form: Record<string, unknown> = { ...parseForm(text) };
    for (const field of body.spaceDelimited) {
      const value = form[field];
      if (typeof value === 'string') form[field] = value.split(' ').filter((s) => s !== '');
    }
    return { value: form };
  }
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { cause: { code: 'parse', message: 'The request body is not valid JSON.', field: '' } };
  }
}
