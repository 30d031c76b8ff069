/**
 * The paging loop a user would write around bare openapi-fetch: the offsets are known in
 * advance, so up to `prefetch` pages are requested at once and yielded in order; the first short
 * page ends the iteration. B2's baseline, against which the clients' own paging is compared.
 *
 * @example
 * for await (const page of prefetchPages((offset, limit) => getPage(offset, limit), 1024, 8)) {
 *   console.log(page.length);
 * }
 */
export async function* prefetchPages<Item>(
  fetchPage: (offset: number, limit: number) => Promise<Item[]>,
  pageSize: number,
  prefetch: number,
): AsyncGenerator<Item[]> {
  const inFlight: Promise<Item[]>[] = [];
  let nextOffset = 0;
  const request = (): void => {
    const page = fetchPage(nextOffset, pageSize);
    // Awaited in order below; this only keeps a page that fails early from counting as unhandled.
    page.catch(() => undefined);
    inFlight.push(page);
    nextOffset += pageSize;
  };
  while (inFlight.length < prefetch) request();
  for (;;) {
    const page = await (inFlight.shift() as Promise<Item[]>);
    if (page.length < pageSize) {
      if (page.length > 0) yield page;
      return;
    }
    request();
    yield page;
  }
}
