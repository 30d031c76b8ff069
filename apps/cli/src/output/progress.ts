/** A stream that progress may be drawn on. */
export interface ProgressStream {
  readonly isTTY?: boolean | undefined;
  write(text: string): unknown;
}

/** Reports the paging of one collection. */
export interface Progress {
  /** One more page arrived with this many records. */
  page(records: number): void;
  /** The collection is complete: the last line stays on screen. */
  done(): void;
}

/** Redraws at most this often, so drawing never slows the paging. */
const REDRAW_INTERVAL_MS = 100;

const NO_PROGRESS: Progress = { page() {}, done() {} };

function line(label: string, records: number, pages: number, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? Math.round((records * 1000) / elapsedMs) : 0;
  const format = (value: number) => value.toLocaleString('en-US');
  return `${label}: ${format(records)} records, ${format(pages)} pages, ${format(rate)} records/s`;
}

/**
 * A progress line on stderr (records, pages, records/s), redrawn in place. Drawn only when the
 * stream is a terminal and `enabled` is true, so pipes and files never see it.
 *
 * @example
 * const progress = createProgress(process.stderr, 'exposure locations', true);
 * for await (const page of pages) progress.page(page.records.length);
 * progress.done();
 */
export function createProgress(
  stream: ProgressStream,
  label: string,
  enabled: boolean,
  now: () => number = Date.now,
): Progress {
  if (!enabled || stream.isTTY !== true) return NO_PROGRESS;
  const started = now();
  let records = 0;
  let pages = 0;
  let drawn = -Infinity;
  const draw = () => {
    drawn = now();
    stream.write(`\r\x1b[2K${line(label, records, pages, drawn - started)}`);
  };
  return {
    page(count) {
      records += count;
      pages += 1;
      if (now() - drawn >= REDRAW_INTERVAL_MS) draw();
    },
    done() {
      draw();
      stream.write('\n');
    },
  };
}
