import type { IncomingHttpHeaders } from 'node:http';
import type { SandboxContext } from '../context.js';
import type { Reply } from '../http/reply.js';
import type { OpenApiDocument, OperationModel } from '@partner-apis/spec-model';

/**
 * The services the sandbox plays with answers of their own; `auth` is the token endpoint of
 * exposure and risk engineering. Any other spec it is built with is served from the spec alone.
 */
export type ServiceName = 'auth' | 'exposure' | 'riskEngineering' | 'liability' | 'approvals';

/** A request that passed the guard and the spec's validation. */
export interface ValidRequest {
  readonly headers: IncomingHttpHeaders;
  /** Query parameters, coerced to the spec's types, with the spec's defaults filled in. */
  readonly query: Record<string, unknown>;
  readonly path: Record<string, string>;
  readonly body: unknown;
  /** The operation of the spec the request was routed to. */
  readonly operation: OperationModel;
}

/** Answers one operation. */
export type Handler = (request: ValidRequest, context: SandboxContext) => Reply;

/** One service: where it is served, from which spec, how it authenticates, what it answers. */
export interface ServiceDefinition {
  /** A `ServiceName`, or the name of a spec served from the spec alone. */
  readonly name: string;
  /** How route ids name the service (`liability.v2`); `name` when absent. */
  readonly routeName?: string;
  /** The sandbox option its spec was given by (`liabilityMajors[0]`), for errors. */
  readonly specOption?: string;
  readonly basePath: string;
  readonly document: OpenApiDocument;
  /** `oauth`: errors are RFC 6749 §5.2 bodies; `common`: the common error body. */
  readonly errorStyle: 'common' | 'oauth';
  /** Authentication and admission; a reply refuses the request before it is validated. */
  guard(
    headers: IncomingHttpHeaders,
    context: SandboxContext,
    operation: OperationModel,
    query: URLSearchParams,
  ): Reply | undefined;
  /**
   * By operationId, for what a spec cannot say; every other operation is answered from its
   * spec (`specHandlers`).
   */
  readonly handlers: Readonly<Record<string, Handler>>;
}
