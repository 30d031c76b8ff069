import { readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { CommandContext, OutputOptions } from '../command-context.js';
import { examples } from '../help-format.js';
import { writeProblem } from '../output/output-sink.js';
import { writeRecords } from '../output/record-writer.js';
import type { ServiceSession } from '../service-session.js';
import { UsageError } from '../usage-error.js';
import { integerOption } from './option-parsers.js';

/** The formats of `sync`: records one after the other, never a table. */
const SYNC_FORMATS = ['ndjson', 'json', 'csv'] as const;

/** Options of `… sync`. */
export interface SyncCommandOptions extends OutputOptions {
  /** `--state`: the file the checkpoint is kept in. */
  state: string;
  pageSize: number;
}

/** What the command needs of a paged read's `sync()`: the run and its checkpoint. */
export interface SyncRunLike extends AsyncIterable<Record<string, unknown>> {
  readonly checkpoint: unknown;
}

/** A paged read with `sync()`, as the exposure and risk engineering clients give it. */
export interface Syncable {
  sync(options: {
    checkpoint?: unknown;
    pageSize?: number;
    onCheckpoint?: (checkpoint: unknown) => void | Promise<void>;
  }): SyncRunLike;
}

/** The checkpoint saved in `file`, or `undefined` when there is no such file yet. */
async function readState(file: string, cwd: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read --state ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(
      `--state ${file} is not JSON: remove it to read everything again, or restore the saved one`,
    );
  }
}

/**
 * Fails with a usage error unless the checkpoint can be saved to `file`: found before the first
 * request, rather than after the first page of records went to stdout with no checkpoint kept.
 */
async function checkWritable(file: string, cwd: string): Promise<void> {
  const target = resolve(cwd, file);
  const existing = await stat(target).catch(() => undefined);
  if (existing?.isDirectory() === true) {
    throw new UsageError(`cannot write --state ${file}: it is a folder`);
  }
  // A device (`/dev/full`, `/dev/null`) would be read without end, and replaced on saving.
  if (existing !== undefined && !existing.isFile()) {
    throw new UsageError(`cannot keep --state in ${file}: it is not a regular file`);
  }
  const temporary = `${target}.partial`;
  try {
    await writeFile(temporary, '');
  } catch (error) {
    throw new UsageError(
      `cannot write --state ${file}: ${writeProblem(error as NodeJS.ErrnoException)}`,
    );
  }
  await unlink(temporary);
}

/**
 * Replaces `file` with the checkpoint in one step (a temporary file beside it, then a rename),
 * so a crash or Ctrl+C leaves the old state or the new one, never half of one.
 */
async function writeState(file: string, cwd: string, checkpoint: unknown): Promise<void> {
  const target = resolve(cwd, file);
  const temporary = `${target}.partial`;
  try {
    await writeFile(temporary, `${JSON.stringify(checkpoint)}\n`);
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    const problem = writeProblem(error as NodeJS.ErrnoException);
    throw Object.assign(new Error(`cannot save --state ${file}: ${problem}`), {
      syscall: 'write',
    });
  }
}

/**
 * Writes the records a sync gives (every record the first time, then those changed since the
 * last complete run) and keeps the checkpoint in `--state`. On stdout in ndjson or json, each
 * record is written before the state moves past its page, and the state is saved after every
 * page: an interrupted run resumes at its last page. `--out FILE` is complete or absent, so its
 * state is saved with it at the end; csv fixes its columns from the first records before writing
 * any, so it too saves at the end. Either way an interrupted run loses nothing: the next one
 * reads again what was not saved. Returns the number of records written.
 */
export async function syncToOutput(
  context: CommandContext,
  label: string,
  collection: Syncable,
  options: SyncCommandOptions,
): Promise<number> {
  const { cwd } = context.io;
  await checkWritable(options.state, cwd);
  const saved = await readState(options.state, cwd);
  const everyPage = options.out === undefined && options.format !== 'csv';
  const progress = context.progress(label, options);
  let sincePage = 0;
  const run = collection.sync({
    checkpoint: saved,
    pageSize: options.pageSize,
    onCheckpoint: async (checkpoint) => {
      progress.page(sincePage);
      sincePage = 0;
      if (everyPage) await writeState(options.state, cwd, checkpoint);
    },
  });
  const sink = await context.output(options);
  async function* counted(): AsyncIterable<Record<string, unknown>> {
    for await (const record of run) {
      sincePage += 1;
      yield record;
    }
  }
  try {
    const count = await writeRecords(
      counted(),
      options.format,
      sink,
      context.writeOptions(options),
    );
    await sink.close();
    await writeState(options.state, cwd, run.checkpoint);
    return count;
  } finally {
    progress.done();
  }
}

/**
 * `partner-apis <service> <resource> sync` of a paged read the operation table marks syncable:
 * the records changed since the last run, with the checkpoint kept in `--state`.
 */
export function registerSyncCommand(
  read: Command,
  context: CommandContext,
  label: string,
  maxPageSize: number,
  collection: (session: ServiceSession, path: readonly string[]) => Promise<Syncable>,
): void {
  const words = `partner-apis ${label}`;
  const state = `${label.split(' ').at(-1)}.state.json`;
  const command = read
    .command('sync')
    .description(
      `the ${label} changed since the last run (all of them the first time); the checkpoint is kept in --state`,
    );
  const path = read.commands.find((sub) => sub.name() === 'list')?.registeredArguments ?? [];
  for (const argument of path) command.addArgument(argument);
  command
    .requiredOption('--state <file>', 'the checkpoint file; created by the first run')
    .addOption(
      new Option('-o, --output <format>', 'output format').choices(SYNC_FORMATS).default('ndjson'),
    )
    .option('--out <file>', 'write the records to this file instead of stdout')
    .option(
      '--page-size <n>',
      `records per request, 1–${maxPageSize}`,
      integerOption(1, maxPageSize),
      maxPageSize,
    )
    .addHelpText(
      'after',
      examples([
        `${words} sync --state ${state} >> changes.ndjson`,
        `${words} sync --state ${state} -o csv --out changes.csv`,
      ]),
    )
    .action(async (...args: unknown[]) => {
      const invoked = args.at(-1) as Command;
      const options = invoked.opts<SyncCommandOptions & { output: OutputOptions['format'] }>();
      await context.run(invoked, async (session) => {
        const values = invoked.processedArgs as string[];
        await syncToOutput(context, label, await collection(session, values), {
          ...options,
          format: options.output,
        });
      });
    });
}
