// Request ids are remembered to reject reuse; past this many the oldest are forgotten, so a
// soak test cannot grow memory without bound.
const REMEMBERED_REQUEST_IDS = 200_000;

/**
 * The `X-Z-Request-Id` values a service has seen, so a reused one can be refused.
 */
export class RequestIdLedger {
  readonly #seen = new Set<string>();

  /** Remembers a request id; `false` when it was used before. */
  use(id: string): boolean {
    if (this.#seen.has(id)) return false;
    this.#seen.add(id);
    if (this.#seen.size > REMEMBERED_REQUEST_IDS) {
      this.#seen.delete(this.#seen.values().next().value as string);
    }
    return true;
  }
}
