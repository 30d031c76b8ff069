/**
 * The headers of an answer as node:http received them, read like `Headers` without building
 * one: a `Headers` checks every name and value it is given and sorts on every read, which costs
 * a few percent of a small call's CPU. Names are lower case; the values of a repeated name read
 * as one, joined with ", ", as `Headers` gives them (`getSetCookie` keeps each cookie). Where a
 * user receives headers, `publicHeaders` turns these into a real `Headers`.
 */
export class ReceivedHeaders implements Headers {
  readonly #values = new Map<string, string[]>();

  /**
   * @param raw node's `rawHeaders`: name, value, name, value…
   * @param length the decoded body's length, which replaces `Content-Length` and drops
   *   `Transfer-Encoding`: the headers of the body as it is served
   */
  constructor(raw: readonly string[], length?: number) {
    for (let i = 0; i < raw.length; i += 2) {
      const name = (raw[i] as string).toLowerCase();
      if (length !== undefined && (name === 'content-length' || name === 'transfer-encoding')) {
        continue;
      }
      this.append(name, raw[i + 1] as string);
    }
    if (length !== undefined) this.#values.set('content-length', [String(length)]);
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase())?.join(', ') ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  getSetCookie(): string[] {
    return [...(this.#values.get('set-cookie') ?? [])];
  }

  set(name: string, value: string): void {
    this.#values.set(name.toLowerCase(), [value]);
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const values = this.#values.get(key);
    if (values === undefined) this.#values.set(key, [value]);
    else values.push(value);
  }

  delete(name: string): void {
    this.#values.delete(name.toLowerCase());
  }

  forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: unknown) {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  /** In name order, each cookie on its own, as `Headers` iterates. */
  *entries(): ReturnType<Headers['entries']> {
    for (const name of [...this.#values.keys()].sort()) {
      const values = this.#values.get(name) as string[];
      if (name === 'set-cookie') for (const cookie of values) yield [name, cookie];
      else yield [name, values.join(', ')];
    }
  }

  *keys(): ReturnType<Headers['keys']> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): ReturnType<Headers['values']> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): ReturnType<Headers['entries']> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }
}

/** Headers as a user receives them: a real `Headers`, whatever the sender read them into. */
export function publicHeaders(headers: Headers): Headers {
  return headers instanceof ReceivedHeaders ? new Headers([...headers]) : headers;
}
