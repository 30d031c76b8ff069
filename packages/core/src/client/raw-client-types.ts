/** The HTTP methods of openapi-typescript's `paths`. */
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
 * mark them required, but the client sets them itself.
 *
 * @example
 * const raw: Client<WithoutTracingHeaders<paths>> = client.raw;
 * await raw.GET('/approvals', { params: { query: { employeeNumber: '100234' } } });
 */
export type WithoutTracingHeaders<Paths> = {
  [Path in keyof Paths]: {
    [Key in keyof Paths[Path]]: Key extends HttpMethod
      ? RelaxOperation<Paths[Path][Key]>
      : Paths[Path][Key];
  };
};
