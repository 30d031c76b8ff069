import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { UsageError } from '../usage-error.js';

/** Where a command's data goes: stdout, or the file of `--out`. Writes respect backpressure. */
export interface OutputSink {
  write(text: string): Promise<void>;
  /** Flushes and closes a file; leaves stdout open. */
  close(): Promise<void>;
}

async function writeTo(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

/**
 * Opens the destination of a command's data. A file that cannot be created is a usage error,
 * reported before any request is sent.
 *
 * @example
 * const sink = await openOutput(options.out, process.stdout);
 * await sink.write('{"id":1}\n');
 * await sink.close();
 */
export async function openOutput(
  out: string | undefined,
  stdout: NodeJS.WritableStream,
): Promise<OutputSink> {
  if (out === undefined) {
    return { write: (text) => writeTo(stdout, text), close: async () => {} };
  }
  const file = createWriteStream(out);
  try {
    await once(file, 'open');
  } catch (error) {
    throw new UsageError(`cannot write --out ${out}: ${(error as Error).message}`);
  }
  return {
    write: (text) => writeTo(file, text),
    close: async () => {
      file.end();
      await once(file, 'finish');
    },
  };
}
