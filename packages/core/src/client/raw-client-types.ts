/** The HTTP methods of openapi-typescript's `paths`. */
type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** The names of the headers a service description's client sets itself. */
export type TracingHeaderName<S> = S extends { tracingHeaders: infer H }
  ? H[keyof H] & string
  : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type RelaxHeader<H, N> = Simplify<Omit<H, N & keyof H> & Partial<Pick<H, Extract<keyof H, N>>>>;
type RelaxParameters<P, N> = P extends { header: infer H }
  ? [RequiredKeys<RelaxHeader<H, N>>] extends [never]
    ? Simplify<Omit<P, 'header'> & { header?: RelaxHeader<H, N> }>
    : Simplify<Omit<P, 'header'> & { header: RelaxHeader<H, N> }>
  : P;
type RelaxOperation<O, N> = O extends { parameters: infer P }
  ? Simplify<Omit<O, 'parameters'> & { parameters: RelaxParameters<P, N> }>
  : O;

/**
 * The generated `paths` with the headers `Names` optional: the spec marks them required, but
 * the client sets them itself (`x-tracing`).
 */
export type WithoutTracingHeaders<Paths, Names = never> = [Names] extends [never]
  ? Paths
  : {
      [Path in keyof Paths]: {
        [Key in keyof Paths[Path]]: Key extends HttpMethod
          ? RelaxOperation<Paths[Path][Key], Names>
          : Paths[Path][Key];
      };
    };
