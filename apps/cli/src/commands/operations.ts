import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { OperationDescription, ParameterDescription } from '@partner-apis/exposure/internal';
import { Command, InvalidArgumentError, Option } from 'commander';
import { withOutputOptions, type CommandContext } from '../command-context.js';
import { examples } from '../help-format.js';
import { writeRecord, writeRecords } from '../output/record-writer.js';
import type { ServiceSession } from '../service-session.js';
import { loadService, readServiceList, type ServiceEntry } from '../service-registry.js';
import { UsageError } from '../usage-error.js';
import type { OperationExtension, OperationOptions } from './operation-extension.js';
import { collect, integerOption } from './option-parsers.js';
import { writePaged, type PagedRecords } from './paged-output.js';
import { registerSyncCommand, type Syncable } from './sync.js';

/** One operation of a spec, as its service package's operation table describes it. */
export type Operation = OperationDescription;

/** One parameter of an operation. */
export type Parameter = ParameterDescription;

/** A client as the operation commands call it: `client[resource][verb](…)`. */
type AnyClient = Record<string, Record<string, (...args: unknown[]) => unknown>>;

/** What the command line adds by hand to one service (none for a service of `services.json` alone). */
export interface Convenience {
  /** The examples of the service's help, instead of one per operation. */
  readonly examples?: readonly string[];
  /** Its own commands and help beside those of its operations. */
  register?(service: Command): void;
  /** Conveniences by `resource.verb` (`sellers.create`). */
  readonly extensions?: Readonly<Record<string, OperationExtension>>;
  /** How a command run gets its client, where `clientFromEnv` of its package is not enough. */
  client?(session: ServiceSession, options: OperationOptions): Promise<unknown>;
  /** Options of every command of the service (liability's `--major`). */
  commandOptions?(): Option[];
}

/** A service of the command line: its operations and how a command run gets its client. */
export interface OperationService extends Convenience {
  /** Its command, `partner-apis <name> …`. */
  readonly name: string;
  readonly description: string;
  readonly operations: Readonly<Record<string, Operation>>;
  client(session: ServiceSession, options: OperationOptions): Promise<unknown>;
}

/** The hand-written conveniences of the four services, each loaded with its service only. */
const CONVENIENCES: Readonly<Record<string, (context: CommandContext) => Promise<Convenience>>> = {
  exposure: async (context) => (await import('./exposure.js')).exposureConvenience(context),
  riskengineering: async () => {
    const { riskEngineeringClient } = await import('../clients.js');
    return { client: riskEngineeringClient };
  },
  liability: async (context) => (await import('./liability.js')).liabilityConvenience(context),
  approvals: async (context) => (await import('./approvals.js')).approvalsConvenience(context),
};

/**
 * A service of `services.json` with its operation table, its conveniences, and its client:
 * the convenience's, else the package's own `clientFromEnv`.
 */
export async function operationService(
  context: CommandContext,
  entry: ServiceEntry,
): Promise<OperationService> {
  const module = await loadService(entry, context.servicesFile);
  const convenience = (await CONVENIENCES[entry.name]?.(context)) ?? {};
  return {
    name: entry.name,
    description: entry.description,
    operations: module.operations,
    ...convenience,
    client:
      convenience.client ??
      (async (session) => (await import('../clients.js')).pluggedClient(session, entry, module)),
  };
}

/**
 * Every service of `services.json`, loaded.
 */
export function operationServices(context: CommandContext): Promise<OperationService[]> {
  const entries = readServiceList(context.servicesFile);
  return Promise.all(entries.map((entry) => operationService(context, entry)));
}

/** `statementOfValues` → `statement-of-values`, `X-Marketplace-Id` → `x-marketplace-id`. */
export function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/** The path parameters of an operation, in the order its method takes them. */
function pathParameters(operation: Operation): Parameter[] {
  return operation.arguments.flatMap((argument) =>
    argument.in === 'path'
      ? operation.parameters.filter((p) => p.in === 'path' && p.name === argument.name)
      : [],
  );
}

/** The parameters a user gives in the params object: query, header and cookie, but not paging nor those the client sets. */
function paramsParameters(operation: Operation): Parameter[] {
  return operation.parameters.filter(
    (p) => p.in !== 'path' && p.paging === undefined && p.role === undefined,
  );
}

/**
 * The parser of a parameter's value, typed from the spec: a value that is not of the
 * type is a usage error (exit code 2) before any request; the other constraints (ranges,
 * formats, patterns) are the client's checks, also before any request.
 */
function parserOf(parameter: Parameter): ((value: string) => unknown) | undefined {
  if (parameter.type === 'integer') {
    return (value) => {
      if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number.');
      return Number(value);
    };
  }
  if (parameter.type === 'number') {
    return (value) => {
      const number = Number(value);
      if (value.trim() === '' || !Number.isFinite(number)) {
        throw new InvalidArgumentError('must be a number.');
      }
      return number;
    };
  }
  if (parameter.type === 'boolean') {
    return (value) => {
      if (value !== 'true' && value !== 'false') {
        throw new InvalidArgumentError('must be true or false.');
      }
      return value === 'true';
    };
  }
  return undefined;
}

/**
 * The flags an operation command has of its own, whatever its spec says: those of listings and
 * output, paging and bodies, and the service's (`--tier`).
 */
function ownFlags(service: OperationService): ReadonlySet<string> {
  const own = withOutputOptions(withLimit(new Command()))
    .option('--page-size <n>')
    .option('--prefetch <n>')
    .option('--data <data>')
    .option('--form <field=value>');
  for (const option of service.commandOptions?.() ?? []) own.addOption(option);
  return new Set(own.options.flatMap((option) => option.long ?? []));
}

/**
 * The flag of a query, header or cookie parameter: `--modified-since`, `--x-marketplace-id`;
 * `--param-<name>` where the command has an option of that name of its own (`--limit` of a
 * spec read in one page, `--query`), so that neither hides the other.
 */
function flagOf(parameter: Parameter, own: ReadonlySet<string>): string {
  const flag = `--${kebab(parameter.name)}`;
  return own.has(flag) ? `--param-${kebab(parameter.name)}` : flag;
}

/** The option of a query, header or cookie parameter, with its flag from `flagOf`. */
function paramOption(parameter: Parameter, own: ReadonlySet<string>): Option {
  const flag = `${flagOf(parameter, own)} <${parameter.type === 'string' || parameter.type === undefined ? 'value' : parameter.type}>`;
  const hints = [
    parameter.format === 'date' ? 'YYYY-MM-DD' : undefined,
    parameter.format === 'date-time' ? 'RFC 3339, e.g. 2026-03-01T00:00:00Z' : undefined,
  ].filter((hint) => hint !== undefined);
  const description = [
    parameter.description?.replace(/\s+/g, ' ').trim().replace(/\.$/, ''),
    ...hints,
  ]
    .filter((part) => part !== undefined && part !== '')
    .join('; ');
  const option = new Option(flag, description);
  // Commander checks choices in the parser: a parser of the type would skip them.
  const parse = parserOf(parameter);
  if (parameter.enum !== undefined) option.choices(parameter.enum.map(String));
  else if (parse !== undefined) option.argParser(parse);
  if (parameter.required) option.makeOptionMandatory();
  return option;
}

/** Where commander keeps a parameter's option value: `--x-marketplace-id` → `xMarketplaceId`. */
function optionKey(parameter: Parameter, own: ReadonlySet<string>): string {
  return new Option(`${flagOf(parameter, own)} <value>`).attributeName();
}

/** The bytes of `--data`: `@file`, `-` for stdin, else the text itself. */
async function dataBytes(
  data: string,
  context: CommandContext,
): Promise<{ bytes: Buffer; from: string }> {
  if (data === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of context.io.stdin ?? process.stdin) {
      chunks.push(Buffer.from(chunk as Buffer));
    }
    return { bytes: Buffer.concat(chunks), from: '--data - (stdin)' };
  }
  if (!data.startsWith('@')) return { bytes: Buffer.from(data, 'utf8'), from: '--data' };
  const from = `--data ${data}`;
  try {
    return { bytes: await readFile(resolve(context.io.cwd, data.slice(1))), from };
  } catch (error) {
    throw new UsageError(`${from}: cannot read it: ${(error as Error).message}`);
  }
}

/** The body of `--data` as the operation's media type takes it: JSON, text, or bytes. */
async function readData(data: string, operation: Operation, context: CommandContext) {
  const { bytes, from } = await dataBytes(data, context);
  const kind = operation.body?.kind;
  if (kind === 'binary') return new Blob([bytes], { type: operation.body?.mediaType });
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (kind === 'text') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${from} is not JSON: ${(error as Error).message}`);
  }
}

/** The fields of `--form field=value` and `--form field=@path` (a file, sent with its name). */
async function readForm(fields: readonly string[], context: CommandContext) {
  const form: Record<string, unknown> = {};
  for (const field of fields) {
    const at = field.indexOf('=');
    if (at < 1) throw new UsageError(`--form ${field}: give it as field=value or field=@path`);
    const [name, value] = [field.slice(0, at), field.slice(at + 1)];
    if (!value.startsWith('@')) {
      form[name] = value;
      continue;
    }
    try {
      const bytes = await readFile(resolve(context.io.cwd, value.slice(1)));
      form[name] = new File([bytes], basename(value.slice(1)));
    } catch (error) {
      throw new UsageError(`--form ${field}: cannot read it: ${(error as Error).message}`);
    }
  }
  return form;
}

/** An example of a command line that calls `operation`, with a value for what it requires. */
function exampleOf(service: string, operation: Operation): string {
  const words = ['partner-apis', service, kebab(operation.resource), operation.verb];
  for (const parameter of pathParameters(operation)) words.push(`<${parameter.name}>`);
  for (const parameter of paramsParameters(operation)) {
    if (!parameter.required) continue;
    const value = parameter.enum?.[0] ?? parameter.default ?? `<${parameter.name}>`;
    words.push(`--${kebab(parameter.name)}`, String(value));
  }
  const kind = operation.body?.kind;
  if (operation.body?.required === true) {
    words.push(
      ...(kind === 'multipart' || kind === 'form'
        ? ['--form', 'field=@file']
        : ['--data', '@request.json']),
    );
  }
  if (operation.paging !== undefined) words.push('-o', 'ndjson');
  if (operation.response.kind === 'binary') words.push('--out', 'answer.bin');
  return words.join(' ');
}

/** Writes a binary answer to `--out` or a pipe; a terminal is refused, as curl refuses it. */
async function writeBinary(context: CommandContext, answer: Blob, options: OperationOptions) {
  if (options.out === undefined && context.io.stdout.isTTY === true) {
    throw new UsageError(
      `the answer is binary (${answer.type || 'bytes'}): give --out FILE, or pipe it to a file`,
    );
  }
  // Bytes as they came: no format to choose, nor to tell.
  const sink = await context.output({ ...options, formatGiven: true });
  await sink.write(new Uint8Array(await answer.arrayBuffer()));
  await sink.close();
}

/** Runs one operation with the command line's arguments and writes its answer. */
async function runOperation(
  context: CommandContext,
  service: OperationService,
  operation: Operation,
  command: Command,
  session: ServiceSession,
  own: ReadonlySet<string>,
): Promise<void> {
  const options = command.opts<OperationOptions>();
  const pathValues = command.processedArgs.slice(0, pathParameters(operation).length) as string[];
  const extension = service.extensions?.[`${operation.resource}.${operation.verb}`];
  const params: Record<string, unknown> = {};
  for (const parameter of paramsParameters(operation)) {
    const value = options[optionKey(parameter, own)];
    if (value !== undefined) params[parameter.name] = value;
  }
  // Read before the client exists: a bad --data is a usage error, and nothing is sent.
  const form = options.form as string[] | undefined;
  const body =
    (await extension?.body?.(options, command)) ??
    (form !== undefined && form.length > 0
      ? await readForm(form, context)
      : options.data === undefined
        ? undefined
        : await readData(options.data, operation, context));
  const client = (await service.client(session, options)) as AnyClient;
  const resource = client[operation.resource]!;
  const { limit } = options;
  if (operation.paging !== undefined) {
    const list = resource.list as (...args: unknown[]) => PagedRecords<Record<string, unknown>>;
    const label = `${service.name} ${kebab(operation.resource)}`;
    // With a limit, pages are read one at a time and no larger than it: nothing past it is read.
    const paging =
      limit === undefined
        ? { pageSize: options.pageSize, prefetch: options.prefetch }
        : { pageSize: Math.min(options.pageSize ?? limit, limit), prefetch: 1 };
    const records = list.call(resource, ...pathValues, { ...params, ...paging });
    await writePaged(context, label, records, options);
    return;
  }
  const args = operation.arguments.map((argument) =>
    argument.in === 'path' ? pathValues.shift() : argument.in === 'body' ? body : params,
  );
  const callOptions = extension?.callOptions?.(options);
  if (callOptions !== undefined) args.push(callOptions);
  const answer = await resource[operation.verb]!.apply(resource, args);
  if (extension?.write !== undefined) return extension.write(answer, options);
  if (answer instanceof Blob) return writeBinary(context, answer, options);
  const sink = await context.output(options);
  if (typeof answer === 'string') {
    await sink.write(answer.endsWith('\n') || answer === '' ? answer : `${answer}\n`);
  } else if (Array.isArray(answer)) {
    const records = limit === undefined ? answer : answer.slice(0, limit);
    await writeRecords(records, options.format, sink, context.writeOptions(options));
  } else {
    await writeRecord(answer, options.format, sink, context.writeOptions(options));
  }
  await sink.close();
}

/**
 * `--limit N` and its other name `--max-items N` (as the aws CLI calls it) on a listing.
 */
function withLimit(command: Command): Command {
  return command
    .addOption(
      new Option('--limit <n>', 'write at most N records; no page past them is read').argParser(
        integerOption(1, Number.MAX_SAFE_INTEGER),
      ),
    )
    .addOption(
      new Option('--max-items <n>').argParser(integerOption(1, Number.MAX_SAFE_INTEGER)).hideHelp(),
    )
    .hook('preAction', (_, action) => {
      const { maxItems, limit } = action.opts<{ maxItems?: number; limit?: number }>();
      if (maxItems !== undefined && limit !== undefined && maxItems !== limit) {
        throw new UsageError(
          `--limit ${limit} and --max-items ${maxItems} disagree: give one of them`,
        );
      }
      if (maxItems !== undefined) action.setOptionValue('limit', maxItems);
    });
}

/** The subcommand named `name` of `parent`, created with `description` when there is none. */
function group(parent: Command, name: string, description: string): Command {
  return (
    parent.commands.find((command) => command.name() === name) ??
    parent.command(name).description(description)
  );
}

/** The body options of an operation: `--data` (JSON, text or bytes), or `--form` for forms. */
function bodyOption(operation: Operation, extension: OperationExtension | undefined): Option {
  const body = operation.body!;
  const form = body.kind === 'multipart' || body.kind === 'form';
  const option = form
    ? new Option(
        '--form <field=value>',
        'a field of the form; field=@path sends a file (repeatable)',
      ).argParser(collect)
    : body.kind === 'json'
      ? new Option('--data <json>', 'the request body: JSON, @file of JSON, or - for stdin')
      : new Option(
          '--data <data>',
          `the request body (${body.mediaType}): @file, or - for stdin${body.kind === 'text' ? ', or the text itself' : ''}`,
        );
  // A convenience that builds the body says itself what it needs instead of --data.
  return body.required && extension?.body === undefined ? option.makeOptionMandatory() : option;
}

/** The command of one operation: `partner-apis <service> <resource> <verb>`. */
function operationCommand(
  context: CommandContext,
  service: OperationService,
  resource: Command,
  operation: Operation,
): void {
  const { paging } = operation;
  const extension = service.extensions?.[`${operation.resource}.${operation.verb}`];
  // `exposure locations` alone lists, as it did before the resource had verbs.
  const command = resource.command(kebab(operation.verb), { isDefault: operation.verb === 'list' });
  const summary = operation.summary ?? operation.operationId;
  command.description(operation.deprecated === true ? `${summary} (deprecated)` : summary);
  extension?.configure(command);
  for (const parameter of pathParameters(operation)) {
    command.argument(`<${parameter.name}>`, parameter.description?.replace(/\s+/g, ' ') ?? '');
  }
  const own = ownFlags(service);
  for (const parameter of paramsParameters(operation)) {
    command.addOption(paramOption(parameter, own));
  }
  if (operation.body !== undefined) command.addOption(bodyOption(operation, extension));
  if (paging !== undefined || ['list', 'search'].includes(operation.verb)) withLimit(command);
  if (paging !== undefined) {
    const limit = operation.parameters.find((p) => p.paging === 'limit');
    const min = limit?.minimum ?? 1;
    const max = limit?.maximum ?? paging.pageSize;
    command
      .addOption(
        new Option('--page-size <n>', `records per request, ${min}–${max}`)
          .argParser(integerOption(min, max))
          .default(max),
      )
      .addOption(
        new Option('--prefetch <n>', 'requests in flight, 1–32')
          .argParser(integerOption(1, 32))
          .default(4),
      );
  }
  for (const option of service.commandOptions?.() ?? []) command.addOption(option);
  const description = operation.description?.replace(/\s+/g, ' ').trim();
  command.addHelpText(
    'after',
    examples(
      [...(extension?.examples ?? []), exampleOf(service.name, operation)],
      [
        ...(extension?.notes ?? []),
        `${operation.method} ${operation.path}${description ? `: ${description}` : ''}`,
      ],
    ),
  );
  withOutputOptions(command).action(async (...args: unknown[]) => {
    const invoked = args.at(-1) as Command;
    await context.run(invoked, (session) =>
      runOperation(context, service, operation, invoked, session, own),
    );
  });
  if (paging?.syncable === true) {
    const label = `${service.name} ${kebab(operation.resource)}`;
    registerSyncCommand(resource, context, label, paging.pageSize, async (session, values) => {
      const client = (await service.client(session, {} as OperationOptions)) as AnyClient;
      const reads = client[operation.resource]!;
      return { sync: (options) => reads.sync!(...values, options) } as Syncable;
    });
  }
}

/**
 * The commands of one service, from the operation table of its package:
 * `partner-apis <service> <resource> <verb>`, path parameters as arguments, query, header and
 * cookie parameters as options typed from the spec, a body from `--data` or `--form`, paged
 * reads streamed with `--page-size` and `--prefetch`, and `sync` where the table says a read
 * can. An operation added to a spec is a command after `pnpm generate` and a build, and a
 * service added to `services.json` is one more, with no edit here.
 */
export function registerServiceCommands(
  program: Command,
  context: CommandContext,
  service: OperationService,
): void {
  const serviceCommand = group(program, service.name, service.description);
  serviceCommand.addHelpText(
    'after',
    examples(
      service.examples ??
        Object.values(service.operations).map((operation) => exampleOf(service.name, operation)),
    ),
  );
  service.register?.(serviceCommand);
  const byResource = new Map<string, Operation[]>();
  for (const operation of Object.values(service.operations)) {
    byResource.set(operation.resource, [...(byResource.get(operation.resource) ?? []), operation]);
  }
  for (const [name, operations] of byResource) {
    const verbs = operations.map((operation) => operation.verb);
    const resource = group(serviceCommand, kebab(name), `${name}: ${verbs.join(', ')}`);
    const command = `partner-apis ${service.name} ${kebab(name)}`;
    const listing = verbs.includes('list')
      ? [
          `\`${command}\` alone runs \`${command} list\`; \`${command} list --help\` shows its options.`,
        ]
      : [];
    resource.addHelpText(
      'after',
      examples(
        operations.map((operation) => exampleOf(service.name, operation)),
        listing,
      ),
    );
    for (const operation of operations) {
      const flags: Record<string, string> = {};
      for (const parameter of paramsParameters(operation)) {
        flags[parameter.name] = `--${kebab(parameter.name)}`;
      }
      for (const parameter of pathParameters(operation)) {
        flags[parameter.name] = `<${parameter.name}>`;
      }
      if (operation.body !== undefined) flags.body = '--data';
      context.operation({
        method: operation.method,
        path: operation.path,
        name: `${operation.resource}.${operation.verb}`,
        command: `${command} ${operation.verb}`,
        flags,
      });
      operationCommand(context, service, resource, operation);
    }
  }
}
