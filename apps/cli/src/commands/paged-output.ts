import type { CommandContext, OutputOptions } from '../command-context.js';
import { writeRecords } from '../output/record-writer.js';

/** The paged collections of the clients, as `list()` returns them. */
export interface PagedRecords<T> {
  pages(): AsyncIterable<{ readonly records: readonly T[] }>;
}

/**
 * Writes every record of a paged collection (the first `limit` of them, when given) to stdout or
 * `--out`, with a progress line on stderr when it is a terminal. Returns the number of records.
 */
export async function writePaged<T extends Record<string, unknown>>(
  context: CommandContext,
  label: string,
  collection: PagedRecords<T>,
  options: OutputOptions & { readonly limit?: number | undefined },
): Promise<number> {
  const sink = await context.output(options);
  const progress = context.progress(label, options);
  const limit = options.limit ?? Infinity;
  async function* records(): AsyncIterable<T> {
    let left = limit;
    // Leaving the loop ends the read: the collection sends no further request.
    for await (const page of collection.pages()) {
      progress.page(Math.min(page.records.length, left));
      yield* page.records.slice(0, left);
      left -= page.records.length;
      if (left <= 0) return;
    }
  }
  try {
    const count = await writeRecords(
      records(),
      options.format,
      sink,
      context.writeOptions(options),
    );
    await sink.close();
    return count;
  } finally {
    progress.done();
  }
}
