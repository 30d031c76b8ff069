import type { Command } from 'commander';
import type { OutputOptions } from '../command-context.js';

/** Options of an operation's command, as commander gives them. */
export type OperationOptions = OutputOptions & {
  data?: string;
  major?: string;
  pageSize?: number;
  prefetch?: number;
  /** `--limit` (or `--max-items`): the most records a listing writes. */
  limit?: number;
} & Record<string, unknown>;

/**
 * What a hand-written convenience adds to the command of one operation, so that one noun has
 * one command: a request body from a few options (`liability sellers create --name … --country
 * …`), call options, or its own way of writing the answer (`approvals approvals list`).
 */
export interface OperationExtension {
  /** Adds its options and arguments to the command. */
  configure(command: Command): void;
  /** Its examples, shown first under the command's one `Examples:` heading. */
  readonly examples?: readonly string[];
  /** Paragraphs after the examples, before the operation's method and path. */
  readonly notes?: readonly string[];
  /**
   * The request body its options give, or undefined for the body of `--data`. It throws a
   * usage error for options that give no body and no `--data`, or both.
   */
  body?(options: OperationOptions, command: Command): unknown;
  /** Options of the client's method beside the body (`forceManualReferral`). */
  callOptions?(options: OperationOptions): object;
  /** Writes the answer instead of the command writing it as a record or records. */
  write?(answer: unknown, options: OperationOptions): Promise<void>;
}
