import type { CallResult } from './call-answer.js';
import type { CallOptions } from './call-options.js';
import type { AssumptionPolicy, OperationDescription } from './operation.js';

/** The parameters and body of one call, as the spec names them. */
export interface CallArguments {
  readonly path?: Readonly<Record<string, unknown>> | undefined;
  /** The query, header and cookie parameters, by the spec's names. */
  readonly params?: Readonly<Record<string, unknown>> | undefined;
  readonly body?: unknown;
  /**
   * The params and the call options were checked already (the pages of one listing): they are
   * sent as they are, not checked again.
   */
  readonly checked?: boolean | undefined;
}

/** What resource methods are built on: one call of an operation of the spec. */
export interface ResourceClient {
  /** The conversation id of calls that give none, where an operation declares its header. */
  readonly conversationId: string;
  /** What to do about values that break an assumed constraint. */
  readonly assumptions: AssumptionPolicy;
  /** Reports something the caller should know but that does not fail the call, once. */
  warn(message: string): void;
  /** Sends one operation of the spec (see `callOperation`). */
  call(
    operation: OperationDescription,
    args: CallArguments,
    options: CallOptions | undefined,
    name: string,
  ): Promise<CallResult>;
  /**
   * The same client, sending `conversationId` with the operations that declare the header
   * (a call's own `conversationId` still wins).
   */
  withConversation(conversationId: string): ResourceClient;
}
