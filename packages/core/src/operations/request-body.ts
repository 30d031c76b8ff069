import { InvalidArgumentError } from '@partner-apis/errors';
import type { RequestBody } from '../transport/exchange.js';
import { isRecord, type BodyDescription } from './operation.js';

/** A request body as it is sent, and the content type it goes with (none: the platform's). */
export interface EncodedBody {
  readonly body: RequestBody;
  readonly contentType: string | undefined;
}

/** JSON of a request body, or an `InvalidArgumentError` for one that has none (circular, BigInt). */
export function serialisedBody(body: unknown, name: string): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(body);
  } catch (error) {
    const why =
      error instanceof Error && /circular/i.test(error.message)
        ? 'it is circular'
        : 'it holds a BigInt or a value JSON cannot hold';
    throw new InvalidArgumentError('body', `cannot be sent as JSON: ${why}`, name);
  }
  if (json === undefined) throw new InvalidArgumentError('body', 'cannot be sent as JSON', name);
  return json;
}

const NOT_A_FILE = 'must be a Blob, a File, a Uint8Array or a readable stream of bytes';

/**
 * The bytes of a file as a `Blob`. A stream is read whole now, once: the upload can then be
 * sent again by a retry, which a half-read stream could not be.
 */
async function fileOf(value: unknown): Promise<Blob | undefined> {
  if (value instanceof Blob) return value;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    return new Blob([value as ArrayBuffer]);
  }
  if (value instanceof ReadableStream) return new Response(value).blob();
  if (typeof value === 'object' && value !== null && Symbol.asyncIterator in value) {
    const chunks: (string | Uint8Array<ArrayBuffer>)[] = [];
    for await (const chunk of value as AsyncIterable<unknown>) {
      if (!(typeof chunk === 'string' || chunk instanceof Uint8Array)) return undefined;
      chunks.push(chunk as Uint8Array<ArrayBuffer>);
    }
    return new Blob(chunks);
  }
  return undefined;
}

/** A form field's value as text: dates as RFC 3339, anything else JSON but strings. */
function text(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function formOf(description: BodyDescription, body: Record<string, unknown>): string {
  const form = new URLSearchParams();
  for (const [field, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const separator = description.separators?.[field];
    if (Array.isArray(value) && separator !== undefined) form.append(field, value.join(separator));
    else for (const item of Array.isArray(value) ? value : [value]) form.append(field, text(item));
  }
  return form.toString();
}

async function multipartOf(
  description: BodyDescription,
  body: Record<string, unknown>,
  name: string,
): Promise<FormData> {
  const form = new FormData();
  for (const [field, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const type = description.partTypes?.[field];
    for (const item of Array.isArray(value) ? value : [value]) {
      if (description.files?.includes(field)) {
        const file = await fileOf(item);
        if (file === undefined) throw new InvalidArgumentError(`body.${field}`, NOT_A_FILE, name);
        const fileName = item instanceof File ? item.name : field;
        form.append(field, type === undefined ? file : new Blob([file], { type }), fileName);
      } else if (type !== undefined || (typeof item === 'object' && !(item instanceof Date))) {
        form.append(field, new Blob([text(item)], { type: type ?? 'application/json' }));
      } else {
        form.append(field, text(item));
      }
    }
  }
  return form;
}

/**
 * A request body encoded as its media type says: JSON, a URL-encoded form (multi-valued fields
 * joined as their `encoding` says), multipart form data (files from a `Blob`, `File`,
 * `Uint8Array` or stream; other parts as text, objects as JSON), text, or bytes. A body that
 * cannot be sent so is an `InvalidArgumentError` naming it, before any request.
 */
export async function encodeBody(
  description: BodyDescription,
  body: unknown,
  name: string,
): Promise<EncodedBody> {
  const { kind, mediaType } = description;
  if (kind === 'json') return { body: serialisedBody(body, name), contentType: mediaType };
  if (kind === 'text') {
    if (typeof body !== 'string') throw new InvalidArgumentError('body', 'must be a string', name);
    return { body, contentType: mediaType };
  }
  if (kind === 'binary') {
    const file = await fileOf(body);
    if (file === undefined) throw new InvalidArgumentError('body', NOT_A_FILE, name);
    // A range such as `image/*` is no content type: the file's own, else plain bytes.
    const contentType = mediaType.includes('*')
      ? file.type || 'application/octet-stream'
      : mediaType;
    return { body: file, contentType };
  }
  if (!isRecord(body)) throw new InvalidArgumentError('body', 'must be an object', name);
  if (kind === 'form') return { body: formOf(description, body), contentType: mediaType };
  // The platform writes the multipart boundary into the content type.
  return { body: await multipartOf(description, body, name), contentType: undefined };
}
