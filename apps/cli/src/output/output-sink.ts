import { createWriteStream, unlinkSync } from 'node:fs';
import { once } from 'node:events';
import { rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { UsageError } from '../usage-error.js';

/** The output formats of every command that prints data. */
export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;

export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Where a command's data goes: stdout, or the file of `--out`. Writes respect backpressure. */
export interface OutputSink {
  write(data: string | Uint8Array): Promise<void>;
  /**
   * What ends the data written so far as a whole document (the `]` of a JSON array), written
   * on stdout should the command fail or be interrupted; none once the data is complete.
   */
  ending?: (() => string) | undefined;
  /** Flushes and closes a file, which only now takes its name; leaves stdout open. */
  close(): Promise<void>;
  /** Gives up: a file being written is removed, the `--out` file is left as it was. */
  abort(): Promise<void>;
}

/** Temporary files being written, removed should the process be interrupted. */
const pendingFiles = new Set<string>();

/** Data on stdout not yet complete, ended should the process be interrupted. */
const openStdout = new Set<OutputSink>();

/**
 * Ends the data of every command still writing to stdout as a whole document (an interrupted
 * `-o json` still closes its array), synchronously, as stdout writes are on Linux, so that a
 * signal handler can call it just before the process exits.
 */
export function endInterruptedOutput(stdout: NodeJS.WritableStream = process.stdout): void {
  for (const sink of openStdout) {
    const ending = sink.ending?.();
    if (ending !== undefined) stdout.write(ending);
  }
  openStdout.clear();
}

/**
 * Removes every temporary file of `--out` still being written, synchronously, so that a signal
 * handler can call it just before the process exits.
 */
export function removePendingOutputFiles(): void {
  for (const file of pendingFiles) {
    try {
      unlinkSync(file);
    } catch {
      // Already gone: nothing is left behind either way.
    }
  }
  pendingFiles.clear();
}

async function writeTo(stream: NodeJS.WritableStream, data: string | Uint8Array): Promise<void> {
  if (!stream.write(data)) await once(stream, 'drain');
}

/**
 * Why a file cannot be written, in words a person acts on.
 */
export function writeProblem(error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return 'its folder does not exist';
  if (error.code === 'EACCES' || error.code === 'EPERM') return 'permission denied';
  if (error.code === 'EISDIR') return 'it is a folder';
  if (error.code === 'ENOSPC') return 'the disk is full';
  if (error.code === 'EDQUOT') return 'the disk quota is used up';
  return error.message;
}

/**
 * Opens the destination of a command's data. `--out FILE` is written to a temporary file beside
 * it that takes its name only when `close` is called, so an interrupted or failed command never
 * leaves a partial file. A file that cannot be created is a usage error, reported before any
 * request is sent.
 */
export async function openOutput(
  out: string | undefined,
  stdout: NodeJS.WritableStream,
  cwd: string = process.cwd(),
): Promise<OutputSink> {
  if (out === undefined) {
    const sink: OutputSink = {
      write: (text) => writeTo(stdout, text),
      close: async () => {
        openStdout.delete(sink);
      },
      // A failed command still ends what it wrote as a whole document.
      abort: async () => {
        const ending = openStdout.delete(sink) ? sink.ending?.() : undefined;
        if (ending !== undefined) await writeTo(stdout, ending);
      },
    };
    openStdout.add(sink);
    return sink;
  }
  const target = resolve(cwd, out);
  // Found now rather than when the data is complete and the file is renamed.
  const existing = await stat(target).catch(() => undefined);
  if (existing?.isDirectory() === true) {
    throw new UsageError(`cannot write --out ${out}: it is a folder`);
  }
  // A device or a pipe (`/dev/stdout`, a FIFO) is written as it is: it is never replaced.
  if (existing !== undefined && !existing.isFile()) return openDevice(out, target);
  const temporary = join(
    dirname(target),
    `.${basename(target)}.${randomBytes(4).toString('hex')}.partial`,
  );
  const file = createWriteStream(temporary, { flags: 'wx' });
  try {
    await once(file, 'open');
  } catch (error) {
    throw new UsageError(
      `cannot write --out ${out}: ${writeProblem(error as NodeJS.ErrnoException)}`,
    );
  }
  pendingFiles.add(temporary);
  // A failed write (a full disk) ends the next write or the close; never an uncaught error.
  let failure: Error | undefined;
  file.on('error', (error) => {
    failure ??= error;
  });
  let settled = false;
  const settle = async (keep: boolean) => {
    if (settled) return;
    settled = true;
    try {
      if (keep) {
        if (failure !== undefined) throw failure;
        file.end();
        await once(file, 'finish');
        await rename(temporary, target);
      } else {
        const closed = once(file, 'close').catch(() => {});
        file.destroy();
        await closed;
        await unlink(temporary).catch(() => {});
      }
    } catch (error) {
      await unlink(temporary).catch(() => {});
      throw error;
    } finally {
      pendingFiles.delete(temporary);
    }
  };
  return {
    write: async (text) => {
      if (failure !== undefined) throw writeFailure(out, failure);
      await writeTo(file, text);
    },
    close: () =>
      settle(true).catch((error: NodeJS.ErrnoException) => {
        throw writeFailure(out, error);
      }),
    abort: () => settle(false),
  };
}

/** A failed write of `--out`, in words a person acts on: `the disk is full`. */
function writeFailure(out: string, error: NodeJS.ErrnoException): Error {
  return Object.assign(new Error(`cannot write --out ${out}: ${writeProblem(error)}`), {
    code: error.code,
    syscall: error.syscall ?? 'write',
  });
}

/** `--out` naming a device or a pipe: written directly, each write awaited, failures told. */
async function openDevice(out: string, target: string): Promise<OutputSink> {
  const device = createWriteStream(target, { flags: 'w' });
  // Told by the write that meets it; the stream's own report would be an uncaught error.
  device.on('error', () => {});
  const end = () => new Promise<void>((resolve) => device.end(resolve));
  return {
    write: (text) =>
      new Promise((resolve, reject) => {
        device.write(text, (error) => {
          if (error === null || error === undefined) resolve();
          else reject(writeFailure(out, error));
        });
      }),
    close: end,
    abort: end,
  };
}
