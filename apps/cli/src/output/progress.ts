/** A stream that progress may be drawn on. */
export interface ProgressStream {
  readonly isTTY?: boolean | undefined;
  /** The terminal's width. */
  readonly columns?: number | undefined;
  write(text: string): unknown;
}

/** Reports the paging of one collection. */
export interface Progress {
  /** One more page arrived with this many records. */
  page(records: number): void;
  /** The collection is complete, or the command gives up: the line is erased. */
  done(): void;
}

/** Redraws at most this often, so drawing never slows the paging. */
const REDRAW_INTERVAL_MS = 100;

/** Back to the start of the line and erase it. */
const ERASE_LINE = '\r\x1b[2K';

const NO_PROGRESS: Progress = { page() {}, done() {} };

/** The line on screen now, so that an exit or an error can erase it first. */
let drawnOn: ProgressStream | undefined;

/**
 * Erases the progress line if one is on screen: before an error or a note is written, and when
 * the process exits (`… | head -1`, Ctrl+C), so no output is glued onto it.
 */
export function clearProgress(): void {
  drawnOn?.write(ERASE_LINE);
  drawnOn = undefined;
}

function line(label: string, records: number, pages: number, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? Math.round((records * 1000) / elapsedMs) : 0;
  const format = (value: number) => value.toLocaleString('en-US');
  return `${label}: ${format(records)} records, ${format(pages)} pages, ${format(rate)} records/s`;
}

/**
 * A progress line on stderr (records, pages, records/s), redrawn in place and cut to fit the
 * terminal's width (a line that wraps cannot be redrawn). Drawn only when the stream is a
 * terminal and `enabled` is true, so pipes and files never see it; erased when done.
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
  return {
    page(count) {
      records += count;
      pages += 1;
      if (now() - drawn < REDRAW_INTERVAL_MS) return;
      drawn = now();
      // Short of the width by the `^C` a terminal echoes on Ctrl+C and a column: a line that
      // wraps cannot be erased.
      const width = Math.max((stream.columns ?? 80) - 3, 1);
      stream.write(`${ERASE_LINE}${line(label, records, pages, drawn - started).slice(0, width)}`);
      drawnOn = stream;
    },
    done() {
      if (drawnOn === stream) clearProgress();
    },
  };
}
