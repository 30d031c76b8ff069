import { specDocuments } from '@partner-apis/sandbox/specs';
import { describeSpec, inlineRefs } from '@partner-apis/spec-model';
import type { Operation, OperationService, Parameter } from '../commands/operations.js';

/** The most records one call of a listing returns when `maxItems` is not given. */
export const DEFAULT_MAX_ITEMS = 100;
/** The most records one call may ask for; the byte budget may return fewer. */
export const MAX_MAX_ITEMS = 1000;
/** The bytes of JSON one tool result holds at most by default (`--max-result-bytes`). */
export const DEFAULT_RESULT_BYTES = 25_000;

/** A JSON Schema, as a tool's `inputSchema` holds it. */
type JsonSchema = Record<string, unknown>;

/** One tool of the server: an operation of a service, and what the model is told of it. */
export interface McpTool {
  /** `<service>_<resource>_<verb>`: `exposure_locations_list`, `liability_sellers_create`. */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchema & { type: 'object' };
  readonly annotations: { readOnlyHint: boolean; destructiveHint: boolean; title: string };
  readonly service: OperationService;
  readonly operation: Operation;
  /** A read whose answer is a list of records: it takes `maxItems` and `cursor`. */
  readonly listing: boolean;
  /** Paged with `x-paging`: read with the client's `list()`. */
  readonly paged: boolean;
}

/** `statementOfValues` → `statement_of_values`. */
function snake(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * The parameters a caller gives, under the spec's names: path, query, header and cookie, but
 * not the paging ones, which `cursor` replaces, nor the headers the client sets itself.
 */
export function toolParameters(operation: Operation): Parameter[] {
  return operation.parameters.filter((p) => p.paging === undefined && p.role === undefined);
}

/** The JSON Schema of one parameter, with the constraints and words the spec gives it. */
function parameterSchema(parameter: Parameter): JsonSchema {
  const { type, format, minimum, maximum, exclusiveMinimum, exclusiveMaximum } = parameter;
  const { minLength, maxLength, pattern, default: fallback, description } = parameter;
  const schema: JsonSchema = {
    type: type ?? 'string',
    format,
    enum: parameter.enum,
    minimum,
    maximum,
    exclusiveMinimum,
    exclusiveMaximum,
    minLength,
    maxLength,
    pattern,
    default: fallback,
    description: description?.replace(/\s+/g, ' ').trim(),
  };
  return Object.fromEntries(Object.entries(schema).filter(([, value]) => value !== undefined));
}

/**
 * The schema of an operation's body, from the spec the sandbox bundles, read through the spec
 * model with its references inlined; none where that spec lacks the operation.
 */
function bodySchemaOf(service: string, operationId: string): JsonSchema {
  const document = (specDocuments as Readonly<Record<string, unknown>>)[service] as
    Parameters<typeof describeSpec>[0] | undefined;
  if (document === undefined) return {};
  const { operations } = describeSpec(document);
  const schema = operations.find((o) => o.operationId === operationId)?.body?.schema;
  return schema === undefined ? {} : (inlineRefs(document, schema) as JsonSchema);
}

/** The input schema of an operation: its parameters, its body, and paging for a listing. */
function inputSchema(
  service: string,
  operation: Operation,
  listing: boolean,
): McpTool['inputSchema'] {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const parameter of toolParameters(operation)) {
    properties[parameter.name] = parameterSchema(parameter);
    if (parameter.required) required.push(parameter.name);
  }
  const { body } = operation;
  if (body !== undefined) {
    properties.body = {
      type: body.type ?? 'object',
      ...bodySchemaOf(service, operation.operationId),
      description: `The request body (${body.mediaType}), as the spec of ${operation.operationId} defines it; the service checks it, and a refusal names each wrong field in its causes.`,
    };
    if (body.required) required.push('body');
  }
  if (operation.write !== true) {
    properties.query = {
      type: 'string',
      description:
        'A JMESPath expression (as the command line\'s --query) applied to the answer, or to the records of a listing, to return only what you need, e.g. "[].{id: locationId, city: address.city}".',
    };
  }
  if (listing) {
    properties.maxItems = {
      type: 'integer',
      minimum: 1,
      maximum: MAX_MAX_ITEMS,
      default: DEFAULT_MAX_ITEMS,
      description: 'The most records this call returns.',
    };
    properties.cursor = {
      type: 'string',
      description:
        'The nextCursor of an earlier answer, to get the records after it; give it with maxItems alone (it holds the other arguments).',
    };
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/** The description of a tool: the spec's summary and description, what it calls, and whether it writes. */
function toolDescription(operation: Operation, listing: boolean): string {
  const parts = [
    operation.summary,
    operation.description?.replace(/\s+/g, ' ').trim(),
    `Calls ${operation.method} ${operation.path}.`,
    listing
      ? `Returns at most maxItems records (${DEFAULT_MAX_ITEMS} by default), fewer when they would not fit the size of one result, and, when more may follow, a nextCursor to ask for them.`
      : undefined,
    operation.write === true ? 'Changes data.' : undefined,
  ];
  return parts.filter((part) => part !== undefined && part !== '').join('\n\n');
}

/**
 * One tool per operation of every service, from the operation tables of the service packages,
 * so an operation added to a spec is a tool after `pnpm generate` and a build, with no edit here;
 * the spec's `x-mcp` renames a tool (`{ name }`) or leaves it out (`{ hidden: true }`).
 */
export function mcpTools(services: readonly OperationService[]): McpTool[] {
  return services.flatMap((service) =>
    Object.values(service.operations).flatMap((operation): McpTool[] => {
      if (operation.mcp?.hidden === true) return [];
      const paged = operation.paging !== undefined;
      const write = operation.write === true;
      const listing = paged || (!write && operation.response.type === 'array');
      const title = operation.summary ?? operation.operationId;
      const named = `${service.name}_${snake(operation.resource)}_${snake(operation.verb)}`;
      return [
        {
          name: operation.mcp?.name ?? named,
          title,
          description: toolDescription(operation, listing),
          inputSchema: inputSchema(service.name, operation, listing),
          annotations: {
            title,
            readOnlyHint: !write,
            // A POST adds; a DELETE, PUT or PATCH may remove or overwrite what was there.
            destructiveHint: ['DELETE', 'PUT', 'PATCH'].includes(operation.method),
          },
          service,
          operation,
          listing,
          paged,
        },
      ];
    }),
  );
}
