import createClient, { type Client } from 'openapi-fetch';
import { ApiError } from '@partner-apis/errors';
import { createClientPipeline, type PipelineOptions } from './client-pipeline.js';
import { PipelineRequest } from './pipeline-request.js';

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** The tracing headers the pipeline sets on every attempt. */
export type TracingHeaderName = 'X-Z-Request-Id' | 'X-Z-Conversation-Id';

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type RelaxHeader<H> = Simplify<
  Omit<H, TracingHeaderName> & Partial<Pick<H, Extract<keyof H, TracingHeaderName>>>
>;
type RelaxParameters<P> = P extends { header: infer H }
  ? [RequiredKeys<RelaxHeader<H>>] extends [never]
    ? Simplify<Omit<P, 'header'> & { header?: RelaxHeader<H> }>
    : Simplify<Omit<P, 'header'> & { header: RelaxHeader<H> }>
  : P;
type RelaxOperation<O> = O extends { parameters: infer P }
  ? Simplify<Omit<O, 'parameters'> & { parameters: RelaxParameters<P> }>
  : O;

/**
 * The generated `paths` with `X-Z-Request-Id` and `X-Z-Conversation-Id` optional: the specs
 * mark them required, but the pipeline sets them itself on every attempt.
 *
 * @example
 * const raw: Client<WithoutTracingHeaders<paths>> = createClient({ baseUrl, fetch });
 * await raw.GET('/approvals', { params: { query: { employeeNumber: '100234' } } });
 */
export type WithoutTracingHeaders<Paths> = {
  [Path in keyof Paths]: {
    [Key in keyof Paths[Path]]: Key extends HttpMethod
      ? RelaxOperation<Paths[Path][Key]>
      : Paths[Path][Key];
  };
};

/** Options of `createServiceClient`: the pipeline's, plus headers sent with every request. */
export interface ServiceClientOptions extends PipelineOptions {
  /** Fixed headers for every request (not credentials: those belong to `auth`). */
  headers?: Record<string, string> | undefined;
}

/** What a service package builds its methods on. */
export interface ServiceClient<Paths extends object> {
  /** The openapi-fetch client over the pipeline; non-2xx responses throw typed errors. */
  readonly raw: Client<WithoutTracingHeaders<Paths>>;
  /** The pipeline's `fetch`, for requests outside the spec. */
  readonly fetch: (request: Request) => Promise<Response>;
  /** The client's conversation id, with `conversationId: 'per-client'`. */
  readonly conversationId: string | undefined;
}

/**
 * Creates the openapi-fetch client of one service over the request pipeline: everything a
 * service package needs besides its resource methods.
 *
 * @example
 * import type { paths } from './generated/openapi.js';
 * const { raw } = createServiceClient<paths>({
 *   baseUrl: 'https://approvals.example.com/v1',
 *   auth: clientIdHeaders({ clientId: 'id', clientSecret: process.env.SECRET ?? '' }),
 * });
 * const { data } = await raw.GET('/approvals', { params: { query: { employeeNumber: '100234' } } });
 */
export function createServiceClient<Paths extends object>(
  options: ServiceClientOptions,
): ServiceClient<Paths> {
  const pipeline = createClientPipeline(options);
  const raw = createClient<WithoutTracingHeaders<Paths>>({
    baseUrl: pipeline.baseUrl,
    fetch: pipeline.fetch,
    headers: options.headers,
    Request: PipelineRequest as unknown as typeof Request,
  });
  return { raw, fetch: pipeline.fetch, conversationId: pipeline.conversationId };
}

/**
 * The data of an openapi-fetch result; an `ApiError` (code `unexpected_response`) when a 2xx
 * response had no body the spec promises.
 *
 * @example
 * return expectData(await raw.GET('/approvals', { params }), 'GET /approvals');
 */
export function expectData<T>(
  result: { data?: T; response: Response },
  operation: string,
): Exclude<T, undefined> {
  if (result.data !== undefined) return result.data as Exclude<T, undefined>;
  throw new ApiError({
    status: result.response.status,
    code: 'unexpected_response',
    message: `${operation} answered ${result.response.status} without a body`,
  });
}
