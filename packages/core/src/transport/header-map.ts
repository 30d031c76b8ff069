/** A header name `Headers` takes: an HTTP token. */
const NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** HTTP white space at either end of a value, which `Headers` cuts off. */
const EDGE_SPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
/** Whether a character code is HTTP white space: tab, LF, CR or space. */
const isSpaceCode = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;
/** A value `Headers` takes once cut: no NUL, CR or LF, nothing beyond Latin-1. */
const VALUE = /^[^\0\r\n\u0100-\uffff]*$/;

/** The name in lower case, or a `TypeError` for one `Headers` refuses. */
function headerName(name: string): string {
  if (!NAME.test(name)) throw new TypeError(`${JSON.stringify(name)} is not a header name`);
  return name.toLowerCase();
}

/** The value cut as `Headers` cuts it, or a `TypeError` that names the header, never the value. */
function headerValue(name: string, value: string): string {
  let text = String(value);
  if (isSpaceCode(text.charCodeAt(0)) || isSpaceCode(text.charCodeAt(text.length - 1))) {
    text = text.replace(EDGE_SPACE, '');
  }
  if (!VALUE.test(text)) {
    throw new TypeError(`the value of the header ${name} holds characters no header can carry`);
  }
  return text;
}

/**
 * Headers read and written like `Headers`, without building one: a `Headers` converts every
 * name and value through WebIDL on each call and sorts on every read, which costs a few percent
 * of a small call's CPU. A call's own request headers and the answers node:http receives are
 * kept in one. Names are lower case; the values of a repeated name read as one, joined with
 * ", ", as `Headers` gives them (`getSetCookie` keeps each cookie). `set` and `append` refuse
 * what `Headers` refuses, with a `TypeError` that never shows the value. Where a user receives
 * headers, `publicHeaders` turns these into a real `Headers`.
 */
export class HeaderMap implements Headers {
  readonly #values = new Map<string, string[]>();

  /** Headers given as a record, as `new Headers(record)` takes them. */
  constructor(init?: Readonly<Record<string, string>>) {
    if (init !== undefined) for (const name of Object.keys(init)) this.append(name, init[name]!);
  }

  /**
   * An answer's headers, from node's `rawHeaders` (name, value, name, value…), which node has
   * already checked.
   *
   * @param length the decoded body's length, which replaces `Content-Length` and drops
   *   `Transfer-Encoding`: the headers of the body as it is served
   */
  static received(raw: readonly string[], length?: number): HeaderMap {
    const headers = new HeaderMap();
    for (let i = 0; i < raw.length; i += 2) {
      const name = (raw[i] as string).toLowerCase();
      if (length !== undefined && (name === 'content-length' || name === 'transfer-encoding')) {
        continue;
      }
      headers.#add(name, raw[i + 1] as string);
    }
    if (length !== undefined) headers.#values.set('content-length', [String(length)]);
    return headers;
  }

  #add(key: string, value: string): void {
    const values = this.#values.get(key);
    if (values === undefined) this.#values.set(key, [value]);
    else values.push(value);
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
    this.#values.set(headerName(name), [headerValue(name, value)]);
  }

  append(name: string, value: string): void {
    this.#add(headerName(name), headerValue(name, value));
  }

  delete(name: string): void {
    this.#values.delete(name.toLowerCase());
  }

  forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: unknown) {
    for (const name of [...this.#values.keys()].sort()) {
      const values = this.#values.get(name) as string[];
      if (name === 'set-cookie')
        for (const cookie of values) callback.call(thisArg, cookie, name, this);
      else callback.call(thisArg, values.join(', '), name, this);
    }
  }

  /** In name order, each cookie on its own, as `Headers` iterates. */
  *entries(): ReturnType<Headers['entries']> {
    const pairs: [string, string][] = [];
    this.forEach((value, name) => pairs.push([name, value]));
    yield* pairs;
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
  return headers instanceof HeaderMap ? new Headers([...headers]) : headers;
}
