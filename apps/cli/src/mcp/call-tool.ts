import { search } from '@jmespath-community/jmespath';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  ApiError,
  InvalidArgumentError,
  PartnerApisError,
  scrubSecrets,
} from '@partner-apis/errors';
import type { OperationOptions } from '../commands/operation-extension.js';
import type { OperationService } from '../commands/operations.js';
import { AUTH_HINT } from '../error-report.js';
import type { ServiceSession } from '../service-session.js';
import { DEFAULT_MAX_ITEMS, MAX_MAX_ITEMS, toolParameters, type McpTool } from './tools.js';

/** A tool's answer as MCP carries it: JSON text, the same as structured content, and whether it failed. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

/** A call refused before anything is sent: the protocol's invalid-params error. */
function refused(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}

/** A client as the tools call it: `client[resource][verb](…)`. */
type AnyClient = Record<string, Record<string, (...args: unknown[]) => unknown>>;

/** Where a listing goes on: the tool, its arguments and the position of the next record. */
interface Continuation {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  readonly offset: number;
}

function encodeCursor(continuation: Continuation): string {
  return Buffer.from(JSON.stringify(continuation), 'utf8').toString('base64url');
}

function decodeCursor(cursor: unknown, tool: string): Continuation {
  const wrong = refused(
    `cursor is not a nextCursor of ${tool}: give the nextCursor of its last answer as it is`,
  );
  if (typeof cursor !== 'string') throw wrong;
  let decoded: Partial<Continuation>;
  try {
    decoded = JSON.parse(
      Buffer.from(cursor, 'base64url').toString('utf8'),
    ) as Partial<Continuation>;
  } catch {
    throw wrong;
  }
  const { offset } = decoded;
  const valid =
    decoded.tool === tool &&
    typeof decoded.arguments === 'object' &&
    decoded.arguments !== null &&
    Number.isSafeInteger(offset) &&
    offset! >= 0;
  if (!valid) throw wrong;
  return decoded as Continuation;
}

/** Every string of `value` (keys too) with the secrets in it replaced by `[redacted]`. */
function scrubbed(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return scrubSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((item) => scrubbed(item, secrets));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        scrubSecrets(key, secrets),
        scrubbed(item, secrets),
      ]),
    );
  }
  return value;
}

/** An answer without the secrets in it, as the JSON text and the structured content of a result. */
function withoutSecrets(value: Record<string, unknown>, secrets: readonly string[]) {
  // The whole text at once: scrubbing each string of a hundred records costs seconds.
  const text = scrubSecrets(JSON.stringify(value), secrets);
  try {
    return { text, structuredContent: JSON.parse(text) as Record<string, unknown> };
  } catch {
    // A secret that matched JSON syntax (`"}`) broke the text: each string alone, then.
    const structuredContent = scrubbed(value, secrets) as Record<string, unknown>;
    return { text: JSON.stringify(structuredContent), structuredContent };
  }
}

function result(value: Record<string, unknown>, secrets: readonly string[], isError = false) {
  const { text, structuredContent } = withoutSecrets(value, secrets);
  const answer: ToolResult = { content: [{ type: 'text', text }], structuredContent };
  return isError ? { ...answer, isError } : answer;
}

/**
 * An error as a tool error, in the tool's words: a refused argument by the tool's own name
 * (`modifiedSince`, not the library's `options.modifiedSince`), a typed error's safe fields
 * (never a credential), and the hint the command line gives.
 */
function errorResult(tool: McpTool, error: unknown, secrets: readonly string[]): ToolResult {
  if (error instanceof InvalidArgumentError) {
    const argument = error.argument.slice(error.argument.lastIndexOf('.') + 1);
    const message = `${tool.name}: ${argument} ${error.problem}`;
    return result({ error: { code: 'invalid_argument', argument, message } }, secrets, true);
  }
  if (!(error instanceof Error)) {
    return result({ error: { message: String(error) } }, secrets, true);
  }
  const fields =
    error instanceof PartnerApisError
      ? error.toJSON()
      : { name: error.name, message: error.message };
  const { code, error: oauthError } = error as { code?: unknown; error?: unknown };
  const hint = error instanceof ApiError && error.status === 401 ? { hint: AUTH_HINT } : {};
  return result(
    { error: { ...fields, code: code ?? oauthError ?? error.name, ...hint } },
    secrets,
    true,
  );
}

/** The arguments of a call, checked against the tool's schema: unknown names are refused. */
function checkedArguments(tool: McpTool, given: Record<string, unknown>): Record<string, unknown> {
  const known = Object.keys(tool.inputSchema.properties as object);
  const unknown = Object.keys(given).filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw refused(
      `${tool.name} takes no ${unknown.join(', ')}; it takes ${known.join(', ') || 'no arguments'}`,
    );
  }
  if (given.cursor === undefined) return given;
  const extra = Object.keys(given).filter(
    (name) => !['cursor', 'maxItems', 'query'].includes(name),
  );
  if (extra.length > 0) {
    throw refused(
      `give cursor with maxItems and query alone: it holds the other arguments (got ${extra.join(', ')})`,
    );
  }
  return given;
}

function maxItemsOf(given: unknown): number {
  if (given === undefined) return DEFAULT_MAX_ITEMS;
  if (typeof given !== 'number' || !Number.isInteger(given) || given < 1 || given > MAX_MAX_ITEMS) {
    throw refused(
      `maxItems must be an integer from 1 to ${MAX_MAX_ITEMS} (got ${JSON.stringify(given)})`,
    );
  }
  return given;
}

/** How the server answers: the tools it lists and runs, and the size of one result. */
export interface ToolPolicy {
  /** The bytes of JSON one result holds at most. */
  readonly maxResultBytes: number;
}

function bytesOf(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** `query` (JMESPath, as the command line's `--query`) applied to `value`, or `value`. */
function queried(value: unknown, query: unknown): unknown {
  if (query === undefined) return value;
  if (typeof query !== 'string') throw refused('query must be a JMESPath expression (a string)');
  try {
    return search(value as Parameters<typeof search>[0], query);
  } catch (error) {
    throw refused(`query is not a JMESPath expression: ${(error as Error).message}`);
  }
}

/**
 * The records of a listing that fit the byte budget, at least one: the page is shortened and
 * the cursor given for the rest. An answer that does not fit even so is refused with advice.
 */
function fitted(
  tool: McpTool,
  records: readonly unknown[],
  query: unknown,
  budget: number,
  more: boolean,
  next: (count: number) => string,
): Record<string, unknown> {
  let count = records.length;
  // Bounded: the count halves, then grows back by a bisection of at most log2(count) steps.
  let answer = { records: queried(records, query), ...(more ? { nextCursor: next(count) } : {}) };
  if (bytesOf(answer) <= budget) return answer;
  let [low, high] = [0, count];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const candidate = {
      records: queried(records.slice(0, middle), query),
      nextCursor: next(middle),
    };
    if (bytesOf(candidate) <= budget) [low, answer] = [middle, candidate];
    else high = middle - 1;
  }
  count = low;
  if (count === 0) throw tooLarge(tool, bytesOf(records[0]), budget);
  return answer;
}

function tooLarge(tool: McpTool, bytes: number, budget: number): McpError {
  return refused(
    `the answer of ${tool.name} is ${bytes} bytes, over the ${budget} bytes of one result: ` +
      'give a query that selects only the fields you need',
  );
}

/**
 * Runs the tools of one server on one session: the clients of the command line (its settings,
 * credentials, environment or embedded sandbox, tiers, token cache and fleet), created once
 * per service and shared by every call. A tool that is not listed is no tool; a refused call
 * is the protocol's error, a failed one a result with `isError`.
 */
export function createToolRunner(
  tools: readonly McpTool[],
  session: ServiceSession,
  policy: ToolPolicy,
): (name: string, args: Record<string, unknown> | undefined) => Promise<ToolResult> {
  const clients = new Map<OperationService, Promise<AnyClient>>();
  const clientOf = (service: OperationService) => {
    let client = clients.get(service);
    if (client === undefined) {
      // No `--major` nor `--tier` here: the settings choose them, as for a command without them.
      client = service.client(session, {} as OperationOptions) as Promise<AnyClient>;
      // A client that could not be created (a bad setting) is tried again on the next call.
      client.catch(() => clients.delete(service));
      clients.set(service, client);
    }
    return client;
  };
  const budget = policy.maxResultBytes;

  async function run(tool: McpTool, given: Record<string, unknown>) {
    const { operation } = tool;
    const args = checkedArguments(tool, given);
    const maxItems = tool.listing ? maxItemsOf(args.maxItems) : 0;
    const from = args.cursor === undefined ? undefined : decodeCursor(args.cursor, tool.name);
    const values = from?.arguments ?? args;
    const params: Record<string, unknown> = {};
    const path: unknown[] = [];
    const kept: Record<string, unknown> = {};
    for (const parameter of toolParameters(operation)) {
      const value = values[parameter.name];
      if (parameter.in === 'path') {
        if (typeof value !== 'string' || value === '') {
          throw refused(`${tool.name} needs ${parameter.name}, a non-empty string`);
        }
      } else if (value !== undefined) {
        params[parameter.name] = value;
      }
      if (value !== undefined) kept[parameter.name] = value;
    }
    for (const argument of operation.arguments) {
      if (argument.in === 'path') path.push(values[argument.name]);
    }
    const resource = (await clientOf(tool.service))[operation.resource]!;
    const offset = from?.offset ?? 0;
    const next = (records: number) =>
      encodeCursor({ tool: tool.name, arguments: kept, offset: offset + records });
    if (tool.paged) {
      const limit = operation.parameters.find((p) => p.paging === 'limit');
      const pageSize = Math.min(
        Math.max(maxItems, limit?.minimum ?? 1),
        limit?.maximum ?? maxItems,
      );
      const records: unknown[] = [];
      const listing = resource.list!(...path, {
        ...params,
        pageSize,
        prefetch: 1,
        startOffset: offset,
      });
      try {
        // Leaving the loop at maxItems aborts what is in flight: no page past them is read.
        for await (const record of listing as AsyncIterable<unknown>) {
          records.push(record);
          if (records.length === maxItems) break;
        }
      } catch (error) {
        // A mocking service answers every offset with the same records: what came first stands.
        if (!(error instanceof ApiError && error.code === 'inconsistent_paging')) throw error;
        return fitted(tool, records, args.query, budget, false, next);
      }
      // A full answer may have more behind it; a short one is the end of the collection.
      return fitted(tool, records, args.query, budget, records.length === maxItems, next);
    }
    const callArgs = operation.arguments.map((argument) =>
      argument.in === 'path' ? path.shift() : argument.in === 'body' ? values.body : params,
    );
    const answer: unknown = await resource[operation.verb]!.apply(resource, callArgs);
    if (tool.listing && Array.isArray(answer)) {
      const records = answer.slice(offset, offset + maxItems);
      const more = offset + records.length < answer.length;
      return fitted(tool, records, args.query, budget, more, next);
    }
    const value = queried(
      answer instanceof Blob ? { type: answer.type, size: answer.size } : answer,
      args.query,
    );
    const shaped =
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : { value };
    if (bytesOf(shaped) > budget) throw tooLarge(tool, bytesOf(shaped), budget);
    return shaped;
  }

  return async (name, given = {}) => {
    const tool = tools.find((candidate) => candidate.name === name);
    if (tool === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `no tool ${name} (tools/list names them)`);
    }
    try {
      return result(await run(tool, given), session.secrets());
    } catch (error) {
      if (error instanceof McpError) throw error;
      return errorResult(tool, error, session.secrets());
    }
  };
}
