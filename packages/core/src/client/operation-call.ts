import { createQuerySerializer } from 'openapi-fetch';
import { InvalidArgumentError } from '@partner-apis/errors';
import {
  CALL_OPTION_NAMES,
  checkCallOptions,
  overridesOf,
  type CallOptions,
} from '../operations/call-options.js';
import {
  checkBodyKind,
  checkParameter,
  checkParams,
  type OperationDescription,
  type ParameterCheck,
} from '../operations/operation.js';
import { encodeBody } from '../operations/request-body.js';
import type { Execute, PipelineReply } from '../pipeline/call.js';
import { responseOf } from '../pipeline/fetch-shape.js';
import { callResult, type CallResult } from '../operations/call-answer.js';
import { HeaderMap } from '../transport/header-map.js';
import type { CallArguments } from '../operations/resource-client.js';
import { unknownOptions } from '../pipeline/option-names.js';

/** A path parameter that would leave the operation's path once the URL is resolved. */
const DOT_SEGMENT = /^\.{1,2}$/;

/** The query string of a call, as openapi-fetch writes it for `raw` calls too. */
const serializeQuery = createQuerySerializer();

/** The operation's path with each path parameter checked and sent as one segment. */
function pathOf(operation: OperationDescription, args: CallArguments, check: ParameterCheck) {
  let path = operation.path;
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'path') continue;
    const value = checkParameter(parameter, parameter.name, args.path?.[parameter.name], check);
    if (typeof value === 'string' && DOT_SEGMENT.test(value)) {
      const shown = JSON.stringify(value);
      throw new InvalidArgumentError(parameter.name, `cannot be ${shown}`, check.operation);
    }
    // One segment each: a `/` in the value is sent encoded, never as a path separator.
    path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
  }
  return path;
}

/** The header the operation declares for the conversation id (`x-tracing`), if any. */
function conversationHeader(operation: OperationDescription): string | undefined {
  return operation.parameters.find((p) => p.role === 'conversation-id')?.name;
}

/** The call options, checked once per call (not per page of a listing). */
function callOptionsOf(
  operation: OperationDescription,
  args: CallArguments,
  options: CallOptions | undefined,
  check: ParameterCheck,
): CallOptions {
  if (args.checked === true) return options ?? {};
  const checked = checkCallOptions(options, check.operation);
  if (options === undefined) return checked;
  for (const message of unknownOptions(options, CALL_OPTION_NAMES)) {
    check.warn(`${check.operation}: ${message}`, 'PARTNER_APIS_UNKNOWN_OPTION');
  }
  if (checked.conversationId !== undefined && conversationHeader(operation) === undefined) {
    throw new InvalidArgumentError(
      'options.conversationId',
      'is not sent: the spec declares no conversation id header for this operation',
      check.operation,
    );
  }
  return checked;
}

/** The query, header and cookie parameters of a call, each where the spec puts it. */
function placeParams(
  operation: OperationDescription,
  params: Readonly<Record<string, unknown>>,
  headers: HeaderMap,
): string {
  const query: Record<string, unknown> = {};
  const cookies: string[] = [];
  for (const parameter of operation.parameters) {
    const value = params[parameter.name];
    if (value === undefined || parameter.role !== undefined) continue;
    if (parameter.in === 'query') query[parameter.name] = value;
    else if (parameter.in === 'header') headers.set(parameter.name, String(value));
    else if (parameter.in === 'cookie') {
      cookies.push(`${parameter.name}=${encodeURIComponent(String(value))}`);
    }
  }
  if (cookies.length > 0) headers.set('cookie', cookies.join('; '));
  return serializeQuery(query);
}

/** A 2xx body as the spec's media type reads it: JSON, text, or bytes in a `Blob`. */
async function answerOf(operation: OperationDescription, reply: PipelineReply): Promise<unknown> {
  const { kind, mediaType } = operation.response;
  const { bytes, headers } = reply.answer;
  if (bytes.byteLength === 0 || operation.method === 'HEAD') {
    return kind === 'text' ? '' : undefined;
  }
  if (kind === 'text') return new TextDecoder().decode(bytes);
  if (kind === 'binary') {
    const type = headers.get('content-type') ?? mediaType ?? 'application/octet-stream';
    return new Blob([bytes as Uint8Array<ArrayBuffer>], { type });
  }
  if (reply.json !== undefined) return reply.json.value;
  return kind === 'none' ? undefined : responseOf(reply).json();
}

/**
 * Sends one operation of the spec: checks the call options, the parameters (path, query,
 * header, cookie) against the operation's description and encodes the body as its media type
 * says, before any request; sets the conversation id where the operation declares one; reads
 * a 2xx body as its media type says and checks it is of the JSON kind the spec gives.
 */
export async function callOperation(
  execute: Execute,
  baseUrl: string,
  operation: OperationDescription,
  args: CallArguments,
  options: CallOptions | undefined,
  check: ParameterCheck,
  conversationId: string,
): Promise<CallResult> {
  const { signal, ...rest } = callOptionsOf(operation, args, options, check);
  const headers = new HeaderMap();
  const conversation = conversationHeader(operation);
  if (conversation !== undefined) headers.set(conversation, rest.conversationId ?? conversationId);
  const path = pathOf(operation, args, check);
  const params =
    args.checked === true
      ? (args.params ?? {})
      : checkParams(operation, args.params ?? {}, '', check);
  const query = placeParams(operation, params, headers);
  let body;
  if (args.body !== undefined && operation.body !== undefined) {
    const encoded = await encodeBody(operation.body, args.body, check.operation);
    body = encoded.body;
    if (encoded.contentType !== undefined) headers.set('content-type', encoded.contentType);
  }
  const reply = await execute({
    method: operation.method,
    url: query === '' ? `${baseUrl}${path}` : `${baseUrl}${path}?${query}`,
    headers,
    body,
    signal,
    overrides: overridesOf(rest, check.operation),
  });
  const data = await answerOf(operation, reply);
  if (operation.response.kind === 'json') {
    checkBodyKind(operation, data, {
      operation: check.operation,
      write: operation.write,
      status: reply.status,
    });
  }
  return callResult(reply, data);
}
