const DAY_MS = 86_400_000;

/** First and last modification day of every generated collection. */
export const MODIFIED_FROM = '2023-01-01';
export const MODIFIED_TO = '2025-12-31';

const FIRST_DAY = Date.parse(`${MODIFIED_FROM}T00:00:00Z`) / DAY_MS;
const SPAN_DAYS = Date.parse(`${MODIFIED_TO}T00:00:00Z`) / DAY_MS - FIRST_DAY;

/** Writes a record of a collection as JSON text, from its index alone. */
export type RecordWriter = (index: number, modifiedDay: number) => string;

const formattedDays = new Map<number, string>();

/** Formats a day number (days since 1970-01-01) as `YYYY-MM-DD`; the few distinct days are cached. */
export function formatDay(day: number): string {
  let text = formattedDays.get(day);
  if (text === undefined) {
    text = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (formattedDays.size < 100_000) formattedDays.set(day, text);
  }
  return text;
}

/**
 * A generated collection of `size` records that exists only as a function of the index.
 * Modification days grow with the index, so a `modifiedSince` filter is a binary search and a
 * page is a slice of indexes: neither depends on the size of the collection.
 */
export class GeneratedCollection {
  readonly size: number;
  readonly #write: RecordWriter;

  constructor(size: number, write: RecordWriter) {
    this.size = size;
    this.#write = write;
  }

  /** The modification day of record `index`: spread evenly over the span, never decreasing. */
  modifiedDay(index: number): number {
    return FIRST_DAY + Math.floor((index * SPAN_DAYS) / Math.max(1, this.size - 1));
  }

  /** Index of the first record modified on or after `date` (`YYYY-MM-DD`). */
  firstModifiedSince(date: string): number {
    const day = Math.floor(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / DAY_MS);
    let low = 0;
    let high = this.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.modifiedDay(middle) < day) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /**
   * One page as a JSON array: records `offset … offset + limit - 1` of those modified on or
   * after `since` (all without it).
   */
  page(query: { since?: string | undefined; limit: number; offset: number }): string {
    const first =
      (query.since === undefined ? 0 : this.firstModifiedSince(query.since)) + query.offset;
    const end = Math.min(this.size, first + query.limit);
    if (first >= end) return '[]';
    let body = '[';
    for (let index = first; index < end; index++) {
      if (index > first) body += ',';
      body += this.#write(index, this.modifiedDay(index));
    }
    return body + ']';
  }
}
