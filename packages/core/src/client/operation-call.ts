import { createQuerySerializer } from 'openapi-fetch';
import { InvalidArgumentError } from '@partner-apis/errors';
import { checkCallOptions, type CallOptions } from '../operations/call-options.js';
import {
  checkBodyKind,
  checkParameter,
  checkQuery,
  type OperationDescription,
  type ParameterCheck,
} from '../operations/operation.js';
import type { CallOverrides, Execute } from '../pipeline/call.js';
import { responseOf } from '../pipeline/fetch-shape.js';
import { CONVERSATION_ID_HEADER } from '../pipeline/request-id.js';
import { callResult, type CallResult } from '../operations/call-answer.js';
import { HeaderMap } from '../transport/header-map.js';
import type { CallArguments } from '../operations/resource-client.js';
import { CALL_OPTION_NAMES } from '../operations/call-options.js';
import { unknownOptions } from '../pipeline/option-names.js';

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

/** A path parameter that would leave the operation's path once the URL is resolved. */
const DOT_SEGMENT = /^\.{1,2}$/;

/** The query string of a call, as openapi-fetch writes it for `raw` calls too. */
const serializeQuery = createQuerySerializer();

/** The call options a call passes on to the pipeline, where they differ from the client's. */
function overridesOf({ timeout, retry }: CallOptions): CallOverrides | undefined {
  if (timeout === undefined && retry === undefined) return undefined;
  return {
    attemptTimeoutMs: timeout?.attemptMs,
    totalTimeoutMs: timeout?.totalMs,
    attempts: retry?.attempts,
    retryWrites: retry?.retryWrites,
  };
}

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

/** Whether the operation declares `X-Z-Conversation-Id`, so a call may set its own. */
function declaresConversation(operation: OperationDescription): boolean {
  return operation.parameters.some(
    (p) => p.in === 'header' && p.name.toLowerCase() === CONVERSATION_ID_HEADER,
  );
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
  if (checked.conversationId !== undefined && !declaresConversation(operation)) {
    throw new InvalidArgumentError(
      'options.conversationId',
      'is not sent: the spec declares no X-Z-Conversation-Id header for this operation',
      check.operation,
    );
  }
  return checked;
}

/**
 * Sends one operation of the spec: checks the call options, the path and query parameters
 * against the operation's description and the body's serialisability before any request,
 * sets the conversation id where the operation declares one, and checks that a 2xx body is of
 * the JSON kind the spec gives.
 *
 * @example
 * const result = await callOperation(execute, baseUrl, getQuote, { path: { quoteId } }, undefined, check, id);
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
  if (declaresConversation(operation)) {
    headers.set(CONVERSATION_ID_HEADER, rest.conversationId ?? conversationId);
  }
  const path = pathOf(operation, args, check);
  const query = serializeQuery(
    args.checked === true ? (args.query ?? {}) : checkQuery(operation, args.query ?? {}, '', check),
  );
  let body: string | undefined;
  if (args.body !== undefined) {
    body = serialisedBody(args.body, check.operation);
    headers.set('content-type', 'application/json');
  }
  const reply = await execute({
    method: operation.method,
    url: query === '' ? `${baseUrl}${path}` : `${baseUrl}${path}?${query}`,
    headers,
    body,
    signal,
    overrides: overridesOf(rest),
  });
  const data =
    reply.json !== undefined
      ? reply.json.value
      : reply.answer.bytes.byteLength === 0 || operation.method === 'HEAD'
        ? undefined
        : await responseOf(reply).json();
  checkBodyKind(operation, data, {
    operation: check.operation,
    method: operation.method,
    status: reply.status,
  });
  return callResult(reply, data);
}
