import type { components } from './generated/openapi.js';

/** The common error body of the partner platform APIs, as the spec defines it. */
export type ErrorBody = components['schemas']['ErrorBody'];
/** One entry of `ErrorBody.causes`. */
export type ErrorCause = components['schemas']['ErrorCause'];
/** Origin of an error (`ErrorBody.source`). */
export type ErrorSource = components['schemas']['ErrorSource'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function parseSource(value: unknown): ErrorSource | undefined {
  if (!isRecord(value)) return undefined;
  const source: ErrorSource = {};
  const name = optionalString(value.name);
  const layer = optionalString(value.layer);
  if (name !== undefined) source.name = name;
  if (layer !== undefined) source.layer = layer;
  return source;
}

function parseCause(value: unknown): ErrorCause | undefined {
  if (!isRecord(value) || typeof value.message !== 'string') return undefined;
  const cause: ErrorCause = { message: value.message };
  const code = optionalString(value.code);
  const field = optionalString(value.field);
  const source = parseSource(value.source);
  if (code !== undefined) cause.code = code;
  if (field !== undefined) cause.field = field;
  if (source !== undefined) cause.source = source;
  return cause;
}

/**
 * Reads a response body as the common error body.
 *
 * Never throws: a body that is not JSON, or JSON of another shape, gives `undefined`. Causes
 * that are not of the documented shape are dropped rather than failing the whole body.
 *
 * @example
 * parseErrorBody('{"code":"authentication_error","message":"Invalid","correlationId":"c-1"}');
 * // → { code: 'authentication_error', message: 'Invalid', correlationId: 'c-1' }
 */
export function parseErrorBody(text: string): ErrorBody | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const { code, message, correlationId } = value;
  if (typeof code !== 'string' || typeof message !== 'string') return undefined;
  const body: ErrorBody = {
    code,
    message,
    correlationId: typeof correlationId === 'string' ? correlationId : '',
  };
  const source = parseSource(value.source);
  if (source !== undefined) body.source = source;
  if (Array.isArray(value.causes)) {
    body.causes = value.causes.map(parseCause).filter((c): c is ErrorCause => c !== undefined);
  }
  return body;
}
