/** What a call's response says besides its data: for logs, support requests and metrics. */
export interface ResponseMeta {
  /** The response, its body already read. */
  readonly response: Response;
  /** The response's headers, without making the `Response`. */
  readonly headers: Headers;
  /** The `X-Z-Request-Id` of the attempt that answered. */
  readonly requestId: string | undefined;
  /** The service's correlation id of the answer, from its headers, when it sent one. */
  readonly correlationId: string | undefined;
  /** The `X-Z-Conversation-Id` the call sent, if any. */
  readonly conversationId: string | undefined;
  /** Attempts sent, the answering one included. */
  readonly attempts: number;
}

/** The data of a call with its response metadata. */
export type WithResponse<T> = { readonly data: T } & ResponseMeta;

/** The promise of a resource call: its data, and `withResponse()` for the metadata too. */
export interface ApiPromise<T> extends Promise<T> {
  /**
   * The data with the response, the request id, the correlation id and the number of attempts.
   *
   * @example
   * const { data, requestId, attempts } = await client.approvals.list('100234').withResponse();
   */
  withResponse(): Promise<WithResponse<T>>;
}

const ignore = () => undefined;

/**
 * An `ApiPromise` as a subclass of `Promise`, `withResponse` on its prototype. Adding the method
 * to each call's promise instead changes the promise's shape per call, which makes V8 allocate
 * the objects of later calls straight into the old generation; then every young collection
 * copies the bodies of hundreds of finished calls, and a call costs a fifth more CPU.
 */
class ResponsePromise<T> extends Promise<T> implements ApiPromise<T> {
  readonly #pending: Promise<WithResponse<T>>;

  constructor(pending: Promise<WithResponse<T>>) {
    let settle: { resolve: (data: T) => void; reject: (reason: unknown) => void } | undefined;
    super((resolve, reject) => {
      settle = { resolve, reject };
    });
    this.#pending = pending;
    const { resolve, reject } = settle as NonNullable<typeof settle>;
    pending.then((result) => resolve(result.data), reject);
    // A caller who only asks `withResponse()` still gets the error there; this copy needs no handler.
    this.then(undefined, ignore);
  }

  /** Derived promises (`then`, `catch`, `finally`) are plain ones. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  withResponse(): Promise<WithResponse<T>> {
    return this.#pending;
  }
}

/**
 * The `ApiPromise` of a call whose data and metadata `pending` resolves to.
 */
export function apiPromise<T>(pending: Promise<WithResponse<T>>): ApiPromise<T> {
  return new ResponsePromise(pending);
}
