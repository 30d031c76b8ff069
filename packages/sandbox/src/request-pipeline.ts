import type { IncomingMessage, ServerResponse } from 'node:http';
import { responseSchema } from '@partner-apis/spec-model';
import { parse as parseQuery } from 'node:querystring';
import { setTimeout as delay } from 'node:timers/promises';
import type { SandboxContext } from './context.js';
import type { FaultAction, FaultRegistry } from './faults.js';
import { cookiesOf, hasMediaType, parseBody, readBody } from './http/request-body.js';
import { errorReply, json, jsonText, type ErrorCause, type Reply } from './http/reply.js';
import { serviceError } from './http/service-errors.js';
import { ROUTER, TOKEN_ROUTE_ID } from './services/all-services.js';
import type { Handler, ServiceDefinition } from './services/service.js';
import type { Route, Router } from './spec/router.js';
import { validatorsFor } from './spec/validators.js';
import type { StatsRecorder } from './stats.js';

const HTML_502 =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1>' +
  '</center><hr><center>gateway</center></body></html>';

/** What the pipeline needs beyond the handlers' context. */
export interface PipelineOptions {
  readonly context: SandboxContext;
  readonly stats: StatsRecorder;
  readonly faults: FaultRegistry;
  readonly validateResponses: boolean;
  /** The routes served; the built-in ones by default. */
  readonly router?: Router<ServiceDefinition>;
  /** By route id: the answers built from the spec, for routes without a hand-written handler. */
  readonly specHandlers: ReadonlyMap<string, Handler>;
}

/** Whether `Accept` takes the media type the operation answers in (JSON where it gives none). */
function accepts(accept: string | undefined, mediaType = 'application/json'): boolean {
  const [range] = mediaType.split('/');
  return (
    accept === undefined ||
    accept.includes('*/*') ||
    accept.includes(`${range}/*`) ||
    accept.includes(mediaType) ||
    (mediaType.includes('json') && accept.includes('json'))
  );
}

function send(response: ServerResponse, reply: Reply): void {
  response.writeHead(reply.status, {
    'content-type': reply.contentType,
    'content-length':
      typeof reply.body === 'string' ? Buffer.byteLength(reply.body) : reply.body.byteLength,
    ...reply.headers,
  });
  response.end(reply.body);
}

/** A fault's text body, sent as is, in the content type its headers give (else plain text). */
function textReply(status: number, body: string, given: Record<string, string> = {}): Reply {
  const headers: Record<string, string> = {};
  let contentType = 'text/plain; charset=utf-8';
  for (const [name, value] of Object.entries(given)) {
    if (name.toLowerCase() === 'content-type') contentType = value;
    else headers[name] = value;
  }
  return { status, body, contentType, headers };
}

function faultReply(action: FaultAction, service: ServiceDefinition): Reply {
  if (action === 'html502') {
    return { status: 502, body: HTML_502, contentType: 'text/html; charset=utf-8' };
  }
  if (typeof action === 'object' && typeof action.body === 'string') {
    return textReply(action.status, action.body, action.headers);
  }
  if (typeof action === 'object' && action.body !== undefined) {
    return json(action.status, action.body, action.headers);
  }
  const status = typeof action === 'number' ? action : (action as { status: number }).status;
  const headers = typeof action === 'object' ? { ...action.headers } : {};
  if (status === 429) headers['retry-after'] ??= '1';
  return serviceError(service, status, `Injected fault: status ${status}.`, { headers });
}

/**
 * Answers one request: route, fault, guard, spec validation, handler, response validation.
 */
export class RequestPipeline {
  readonly #options: PipelineOptions;

  constructor(options: PipelineOptions) {
    this.#options = options;
  }

  async handle(
    request: IncomingMessage,
    response: ServerResponse,
    pathname: string,
    search: string,
  ): Promise<void> {
    const { stats, faults, router = ROUTER } = this.#options;
    const match = router.match(request.method ?? 'GET', pathname);
    if (match.kind !== 'found') {
      const unmatched = stats.route('unmatched');
      unmatched.requests++;
      const reply =
        match.kind === 'wrong-method'
          ? errorReply(405, 'method_not_allowed', `${request.method} is not supported here.`, {
              headers: { allow: match.allowed.join(', ') },
            })
          : match.kind === 'bad-path'
            ? errorReply(400, 'data_validation', 'The path is not valid percent-encoding.')
            : errorReply(404, 'not_found', `No operation at ${pathname}.`);
      stats.recordStatus(unmatched, reply.status);
      send(response, reply);
      return;
    }

    const { route } = match;
    const routeStats = stats.route(route.id);
    routeStats.requests++;
    const fault = faults.next(route.id);
    const action = fault?.action;
    let reply: Reply | undefined;
    let validate = this.#options.validateResponses;
    if (action !== undefined) {
      routeStats.faults++;
      if (action !== 'truncate' && action !== 'malformed' && action !== 'reset') {
        reply = faultReply(action, route.service);
        // Only a custom body can break the spec by mistake; the other faults do so on purpose.
        validate &&= typeof action === 'object';
      }
    }
    if (action === 'reset') {
      if (fault!.latencyMs > 0) await delay(fault!.latencyMs);
      request.socket.resetAndDestroy();
      return;
    }
    reply ??= await this.#answer(request, route, match.pathParams, search);
    if (action === 'truncate') {
      reply = { ...reply, body: reply.body.slice(0, Math.max(1, reply.body.length >> 1)) };
      validate = false;
    } else if (action === 'malformed') {
      reply = jsonText(200, '"malformed"');
      validate = false;
    }
    if (validate && !reply.fromGateway) reply = this.#checkResponse(route, reply);
    if (reply.status === 200 && route.id === TOKEN_ROUTE_ID) routeStats.tokenIssues++;
    stats.recordStatus(routeStats, reply.status);
    if (fault !== undefined && fault.latencyMs > 0) await delay(fault.latencyMs);
    send(response, reply);
  }

  async #answer(
    request: IncomingMessage,
    route: Route<ServiceDefinition>,
    pathParams: Record<string, string>,
    search: string,
  ): Promise<Reply> {
    const { service, operation } = route;
    const { context } = this.#options;
    const refused = service.guard(request.headers, context, operation, new URLSearchParams(search));
    if (refused) return refused;
    const answers = operation.success?.mediaType;
    if (!accepts(request.headers.accept, answers)) {
      return serviceError(
        service,
        406,
        `Only ${answers ?? 'application/json'} responses are available.`,
      );
    }

    const validators = validatorsFor(operation);
    const bodyCauses: ErrorCause[] = [];
    let body: unknown;
    const spec = operation.body;
    if (spec) {
      const bytes = await readBody(request);
      if (bytes === undefined) {
        return serviceError(service, 413, 'The request body is larger than 1 MiB.', {
          headers: { connection: 'close' },
        });
      }
      const contentType = request.headers['content-type'];
      if (bytes.byteLength === 0) {
        if (spec.required) {
          bodyCauses.push({
            code: 'required',
            message: 'The request body is required.',
            field: '',
          });
        }
      } else if (!hasMediaType(contentType, spec)) {
        // RFC 6749 §5.2 has no 415: a token request in another format is an invalid_request.
        const status = service.errorStyle === 'oauth' ? 400 : 415;
        return serviceError(service, status, `The request body must be ${spec.mediaType}.`);
      } else {
        const parsed = await parseBody(bytes, contentType!, spec);
        if ('cause' in parsed) bodyCauses.push(parsed.cause);
        else {
          body = parsed.value;
          // Bytes are whatever the spec's `format: binary` allows.
          if (spec.kind !== 'binary') bodyCauses.push(...(validators.body!(body) ?? []));
        }
      }
    }

    const causes: ErrorCause[] = [];
    const query = parseQuery(search) as Record<string, unknown>;
    const headerParams: Record<string, unknown> = {};
    for (const parameter of operation.parameters) {
      if (parameter.in !== 'header') continue;
      const value = request.headers[parameter.name.toLowerCase()];
      if (value !== undefined) headerParams[parameter.name] = value;
    }
    // Parameters first, then the body: the order a reader of the request meets them.
    for (const found of [
      validators.query(query),
      validators.header(headerParams),
      validators.cookie(cookiesOf(request.headers)),
      validators.path(pathParams),
    ]) {
      if (found) causes.push(...found);
    }
    causes.push(...bodyCauses);
    if (causes.length > 0) {
      return serviceError(service, 400, 'The request does not adhere to the specification.', {
        causes,
      });
    }

    const handler =
      service.handlers[operation.operationId] ?? this.#options.specHandlers.get(route.id);
    if (!handler) {
      return serviceError(
        service,
        501,
        `${operation.operationId} is not implemented by the sandbox.`,
      );
    }
    try {
      return handler(
        { headers: request.headers, query, path: pathParams, body, operation },
        context,
      );
    } catch {
      return serviceError(service, 500, 'The sandbox failed to answer this request.');
    }
  }

  /** Replaces a response that breaks the spec with a 500 that says how, and records it. */
  #checkResponse(route: Route<ServiceDefinition>, reply: Reply): Reply {
    const schema = responseSchema(route.operation, reply.status);
    // Statuses the spec does not document and non-JSON bodies are not checked.
    if (schema === null || schema === undefined || typeof reply.body !== 'string') return reply;
    if (!reply.contentType.includes('json')) return reply;
    let value: unknown;
    try {
      value = JSON.parse(reply.body);
    } catch {
      value = undefined;
    }
    const validator = validatorsFor(route.operation).response(schema);
    const causes =
      value === undefined
        ? [{ code: 'parse', message: 'The response body is not valid JSON.', field: '' }]
        : validator(value);
    if (!causes) return reply;
    this.#options.stats.recordViolation({ route: route.id, status: reply.status, causes });
    return serviceError(
      route.service,
      500,
      `The sandbox refused to send a ${reply.status} response that breaks the spec of ${route.id}.`,
      { causes },
    );
  }
}
