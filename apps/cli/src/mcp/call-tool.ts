import { PartnerApisError, scrubSecrets } from '@partner-apis/errors';
import type { OperationService } from '../commands/operations.js';
import type { ServiceSession } from '../service-session.js';
import {
  DEFAULT_MAX_ITEMS,
  MAX_MAX_ITEMS,
  isWrite,
  toolParameters,
  type McpTool,
} from './tools.js';

/** Which writes the server makes: every one (`--allow-writes`), or those of the tools named. */
export interface WritePolicy {
  readonly allowWrites: boolean;
  readonly allowTools: readonly string[];
}

/** A tool's answer as MCP carries it: JSON text, the same as structured content, and whether it failed. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

/** A call the server refuses before anything is sent; `code` says why. */
class RefusedCall extends Error {
  override readonly name = 'RefusedCall';
  constructor(
    readonly code: 'unknown_tool' | 'write_refused' | 'invalid_argument',
    message: string,
  ) {
    super(message);
  }
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
  const refused = new RefusedCall(
    'invalid_argument',
    `cursor is not a nextCursor of ${tool}: give the nextCursor of its last answer as it is`,
  );
  if (typeof cursor !== 'string') throw refused;
  let decoded: Partial<Continuation>;
  try {
    decoded = JSON.parse(
      Buffer.from(cursor, 'base64url').toString('utf8'),
    ) as Partial<Continuation>;
  } catch {
    throw refused;
  }
  const { offset } = decoded;
  const valid =
    decoded.tool === tool &&
    typeof decoded.arguments === 'object' &&
    decoded.arguments !== null &&
    Number.isSafeInteger(offset) &&
    offset! >= 0;
  if (!valid) throw refused;
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

/** The code of a typed error: the service's error code, the OAuth error, the system's code, else its class. */
function codeOf(error: Error): string {
  const {
    code,
    error: oauthError,
    systemCode,
  } = error as {
    code?: unknown;
    error?: unknown;
    systemCode?: unknown;
  };
  for (const candidate of [code, oauthError, systemCode]) {
    if (typeof candidate === 'string' && candidate !== '') return candidate;
  }
  return error.name;
}

/** An error as a tool error: the typed error's safe fields (never a credential), its message and code. */
function errorResult(error: unknown, secrets: readonly string[]): ToolResult {
  if (!(error instanceof Error))
    return result({ error: { message: String(error) } }, secrets, true);
  const fields =
    error instanceof PartnerApisError
      ? error.toJSON()
      : { name: error.name, message: error.message };
  return result({ error: { ...fields, code: codeOf(error) } }, secrets, true);
}

/** Why a write is refused, and how to allow it. */
function refusal(tool: McpTool): string {
  const { method, path } = tool.operation;
  return (
    `${tool.name} changes data (${method} ${path}) and this server makes no writes: ` +
    `start it with \`partner-apis mcp --allow-writes\`, or with \`--allow-tools ${tool.name}\` to allow this tool alone.`
  );
}

/** The arguments of a call, checked against the tool's schema: unknown names are refused. */
function checkedArguments(tool: McpTool, given: Record<string, unknown>): Record<string, unknown> {
  const known = Object.keys(tool.inputSchema.properties as object);
  const unknown = Object.keys(given).filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new RefusedCall(
      'invalid_argument',
      `${tool.name} takes no ${unknown.join(', ')}; it takes ${known.join(', ') || 'no arguments'}`,
    );
  }
  if (given.cursor === undefined) return given;
  const extra = Object.keys(given).filter((name) => name !== 'cursor' && name !== 'maxItems');
  if (extra.length > 0) {
    throw new RefusedCall(
      'invalid_argument',
      `give cursor with maxItems alone: it holds the other arguments (got ${extra.join(', ')})`,
    );
  }
  return given;
}

function maxItemsOf(given: unknown): number {
  if (given === undefined) return DEFAULT_MAX_ITEMS;
  if (typeof given !== 'number' || !Number.isInteger(given) || given < 1 || given > MAX_MAX_ITEMS) {
    throw new RefusedCall(
      'invalid_argument',
      `maxItems must be an integer from 1 to ${MAX_MAX_ITEMS} (got ${JSON.stringify(given)})`,
    );
  }
  return given;
}

/**
 * Runs the tools of one server on one session: the clients of the command line (its settings,
 * credentials, environment or embedded sandbox, tiers, token cache and fleet), created once
 * per service and shared by every call.
 *
 * @example
 * const call = createToolRunner(tools, session, { allowWrites: false, allowTools: [] });
 * await call('exposure_locations_list', { maxItems: 10 });
 */
export function createToolRunner(
  tools: readonly McpTool[],
  session: ServiceSession,
  policy: WritePolicy,
): (name: string, args: Record<string, unknown> | undefined) => Promise<ToolResult> {
  const clients = new Map<OperationService, Promise<AnyClient>>();
  const clientOf = (service: OperationService) => {
    let client = clients.get(service);
    if (client === undefined) {
      // No `--major` nor `--tier` here: the settings choose them, as for a command without them.
      const options = {} as Parameters<OperationService['client']>[1];
      client = service.client(session, options) as Promise<AnyClient>;
      // A client that could not be created (a bad setting) is tried again on the next call.
      client.catch(() => clients.delete(service));
      clients.set(service, client);
    }
    return client;
  };

  async function run(tool: McpTool, given: Record<string, unknown>) {
    const { operation } = tool;
    const args = checkedArguments(tool, given);
    const maxItems = tool.listing ? maxItemsOf(args.maxItems) : 0;
    const from = args.cursor === undefined ? undefined : decodeCursor(args.cursor, tool.name);
    const values = from?.arguments ?? args;
    const query: Record<string, unknown> = {};
    const path: unknown[] = [];
    const kept: Record<string, unknown> = {};
    for (const parameter of toolParameters(operation)) {
      const value = values[parameter.name];
      if (parameter.in === 'path') {
        if (typeof value !== 'string' || value === '') {
          throw new RefusedCall(
            'invalid_argument',
            `${tool.name} needs ${parameter.name}, a non-empty string`,
          );
        }
        path.push(value);
      } else if (value !== undefined) {
        query[parameter.name] = value;
      }
      if (value !== undefined) kept[parameter.name] = value;
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
      const listing = resource.list!({ ...query, pageSize, prefetch: 1, startOffset: offset });
      // Leaving the loop at maxItems aborts what is in flight: no page past them is read.
      for await (const record of listing as AsyncIterable<unknown>) {
        records.push(record);
        if (records.length === maxItems) break;
      }
      // A full answer may have more behind it; a short one is the end of the collection.
      return records.length === maxItems ? { records, nextCursor: next(maxItems) } : { records };
    }
    const callArgs: unknown[] = [...path];
    if (operation.body !== undefined) callArgs.push(values.body);
    if (toolParameters(operation).some((p) => p.in === 'query')) callArgs.push(query);
    const answer: unknown = await resource[operation.verb]!.apply(resource, callArgs);
    if (tool.listing && Array.isArray(answer)) {
      const records = answer.slice(offset, offset + maxItems);
      const more = offset + records.length < answer.length;
      return more ? { records, nextCursor: next(records.length) } : { records };
    }
    return typeof answer === 'object' && answer !== null && !Array.isArray(answer)
      ? (answer as Record<string, unknown>)
      : { value: answer };
  }

  return async (name, given = {}) => {
    const tool = tools.find((candidate) => candidate.name === name);
    try {
      if (tool === undefined)
        throw new RefusedCall('unknown_tool', `no tool ${name} (tools/list names them)`);
      const allowed = policy.allowWrites || policy.allowTools.includes(tool.name);
      if (isWrite(tool.operation) && !allowed)
        throw new RefusedCall('write_refused', refusal(tool));
      return result(await run(tool, given), session.secrets());
    } catch (error) {
      return errorResult(error, session.secrets());
    }
  };
}
