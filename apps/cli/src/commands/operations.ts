import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { operations as approvalsOperations } from '@partner-apis/approvals/internal';
import { operations as exposureOperations } from '@partner-apis/exposure/internal';
import { operations as liabilityOperations } from '@partner-apis/liability/internal';
import {
  operations as riskEngineeringOperations,
  type OperationDescription,
  type ParameterDescription,
} from '@partner-apis/riskengineering/internal';
import { InvalidArgumentError, Option, type Command } from 'commander';
import {
  approvalsClient,
  exposureClient,
  liabilityClient,
  riskEngineeringClient,
} from '../clients.js';
import { withOutputOptions, type CommandContext } from '../command-context.js';
import { examples } from '../help-format.js';
import { writeRecord, writeRecords } from '../output/record-writer.js';
import type { ServiceSession } from '../service-session.js';
import { UsageError } from '../usage-error.js';
import { approvalsExtensions, type Tier } from './approvals.js';
import { exposureExtensions } from './exposure.js';
import { LIABILITY_EXTENSIONS, majorOption } from './liability.js';
import type { OperationExtension, OperationOptions } from './operation-extension.js';
import { integerOption } from './option-parsers.js';
import { writePaged, type PagedRecords } from './paged-output.js';

/** One operation of a spec, as its service package's operation table describes it. */
export type Operation = OperationDescription;

/** One parameter of an operation. */
export type Parameter = ParameterDescription;

/** A client as the operation commands call it: `client[resource][verb](…)`. */
type AnyClient = Record<string, Record<string, (...args: unknown[]) => unknown>>;

/** A service of the command line: its operations and how a command run gets its client. */
export interface OperationService {
  /** Its command, `partner-apis <name> …`. */
  readonly name: string;
  readonly operations: Readonly<Record<string, Operation>>;
  client(session: ServiceSession, options: OperationOptions): Promise<unknown>;
  /** Conveniences by `resource.verb` (`sellers.create`). */
  readonly extensions?: Readonly<Record<string, OperationExtension>>;
  /** Its help, where no hand-written command has given it one. */
  readonly description: string;
  /** Liability takes `--major`. */
  readonly majors?: boolean;
}

/**
 * The four services, each with the operation table of its package.
 *
 * @example
 * registerOperationCommands(program, context, operationServices(context));
 */
export function operationServices(context: CommandContext): OperationService[] {
  return [
    {
      name: 'exposure',
      description: 'property exposure',
      operations: exposureOperations,
      client: (s) => exposureClient(s),
      extensions: exposureExtensions(context),
    },
    {
      name: 'riskengineering',
      description: 'risk engineering: gradings and locations',
      operations: riskEngineeringOperations,
      client: (s) => riskEngineeringClient(s),
    },
    {
      name: 'liability',
      description: 'third party liability',
      operations: liabilityOperations,
      client: (s, options) => liabilityClient(s, context.liabilityMajors, options.major),
      majors: true,
      extensions: LIABILITY_EXTENSIONS,
    },
    {
      name: 'approvals',
      description: 'procurement approvals',
      operations: approvalsOperations,
      client: (s, options) => approvalsClient(s, options.tier as Tier | undefined),
      extensions: approvalsExtensions(context),
    },
  ];
}

/** `statementOfValues` → `statement-of-values`, `modifiedSince` → `modified-since`. */
export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The path parameters of an operation, in the order its path names them. */
function pathParameters(operation: Operation): Parameter[] {
  return operation.parameters
    .filter((p) => p.in === 'path')
    .sort((a, b) => operation.path.indexOf(`{${a.name}}`) - operation.path.indexOf(`{${b.name}}`));
}

function queryParameters(operation: Operation): Parameter[] {
  return operation.parameters.filter((p) => p.in === 'query');
}

function isPaged(operation: Operation): boolean {
  return operation.parameters.some((p) => p.paging !== undefined);
}

/**
 * The parser of a query parameter's value, typed from the spec: a value that is not of the
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

function queryOption(parameter: Parameter): Option {
  const flag = `--${kebab(parameter.name)} <${parameter.type === 'string' || parameter.type === undefined ? 'value' : parameter.type}>`;
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

/** The body of `--data`: JSON itself, `@file` of JSON, or `-` for stdin. */
async function readData(data: string, context: CommandContext): Promise<unknown> {
  let text = data;
  let from = '--data';
  if (data === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of context.io.stdin ?? process.stdin) {
      chunks.push(Buffer.from(chunk as Buffer));
    }
    text = Buffer.concat(chunks).toString('utf8');
    from = '--data - (stdin)';
  } else if (data.startsWith('@')) {
    const file = data.slice(1);
    from = `--data @${file}`;
    try {
      text = await readFile(resolve(context.io.cwd, file), 'utf8');
    } catch (error) {
      throw new UsageError(`${from}: cannot read it: ${(error as Error).message}`);
    }
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    throw new UsageError(`${from} is not JSON: ${(error as Error).message}`);
  }
}

/** An example of a command line that calls `operation`, with a value for what it requires. */
function exampleOf(service: string, operation: Operation): string {
  const words = ['partner-apis', service, kebab(operation.resource), operation.verb];
  for (const parameter of pathParameters(operation)) words.push(`<${parameter.name}>`);
  for (const parameter of queryParameters(operation)) {
    if (!parameter.required || parameter.paging !== undefined) continue;
    const value = parameter.enum?.[0] ?? parameter.default ?? `<${parameter.name}>`;
    words.push(`--${kebab(parameter.name)}`, String(value));
  }
  if (operation.body?.required === true) words.push('--data', '@request.json');
  if (isPaged(operation)) words.push('-o', 'ndjson');
  return words.join(' ');
}

/** Runs one operation with the command line's arguments and writes its answer. */
async function runOperation(
  context: CommandContext,
  service: OperationService,
  operation: Operation,
  command: Command,
  session: ServiceSession,
): Promise<void> {
  const options = command.opts<OperationOptions>();
  const pathValues = command.processedArgs.slice(0, pathParameters(operation).length) as string[];
  const extension = service.extensions?.[`${operation.resource}.${operation.verb}`];
  const query: Record<string, unknown> = {};
  for (const parameter of queryParameters(operation)) {
    if (parameter.paging !== undefined) continue;
    const value = options[parameter.name];
    if (value !== undefined) query[parameter.name] = value;
  }
  // Read before the client exists: a bad --data is a usage error, and nothing is sent.
  const body =
    (await extension?.body?.(options, command)) ??
    (options.data === undefined ? undefined : await readData(options.data, context));
  const client = (await service.client(session, options)) as AnyClient;
  const resource = client[operation.resource];
  const { limit } = options;
  if (isPaged(operation)) {
    const list = resource?.list as (query: object) => PagedRecords<Record<string, unknown>>;
    const label = `${service.name} ${kebab(operation.resource)}`;
    // With a limit, pages are read one at a time and no larger than it: nothing past it is read.
    const paging =
      limit === undefined
        ? { pageSize: options.pageSize, prefetch: options.prefetch }
        : { pageSize: Math.min(options.pageSize ?? limit, limit), prefetch: 1 };
    await writePaged(context, label, list.call(resource, { ...query, ...paging }), options);
    return;
  }
  const args: unknown[] = [...pathValues];
  if (operation.body !== undefined) args.push(body);
  if (queryParameters(operation).length > 0) args.push(query);
  const callOptions = extension?.callOptions?.(options);
  if (callOptions !== undefined) args.push(callOptions);
  const answer = await resource![operation.verb]!.apply(resource, args);
  if (extension?.write !== undefined) return extension.write(answer, options);
  const sink = await context.output(options);
  if (Array.isArray(answer)) {
    const records = limit === undefined ? answer : answer.slice(0, limit);
    await writeRecords(records, options.format, sink, context.writeOptions(options));
  } else {
    await writeRecord(answer, options.format, sink, context.writeOptions(options));
  }
  await sink.close();
}

/**
 * `--limit N` and its other name `--max-items N` (as the aws CLI calls it) on a listing.
 *
 * @example
 * withLimit(command);
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

/** The command of one operation: `partner-apis <service> <resource> <verb>`. */
function operationCommand(
  context: CommandContext,
  service: OperationService,
  resource: Command,
  operation: Operation,
): void {
  const paged = isPaged(operation);
  const extension = service.extensions?.[`${operation.resource}.${operation.verb}`];
  // `exposure locations` alone lists, as it did before the resource had verbs.
  const command = resource.command(operation.verb, { isDefault: operation.verb === 'list' });
  const summary = operation.summary ?? operation.operationId;
  command.description(operation.deprecated === true ? `${summary} (deprecated)` : summary);
  extension?.configure(command);
  for (const parameter of pathParameters(operation)) {
    command.argument(`<${parameter.name}>`, parameter.description?.replace(/\s+/g, ' ') ?? '');
  }
  for (const parameter of queryParameters(operation)) {
    if (parameter.paging === undefined) command.addOption(queryOption(parameter));
  }
  if (operation.body !== undefined) {
    const data = new Option(
      '--data <json>',
      'the request body: JSON, @file of JSON, or - for stdin',
    );
    // A convenience that builds the body says itself what it needs instead of --data.
    const required = operation.body.required && extension?.body === undefined;
    command.addOption(required ? data.makeOptionMandatory() : data);
  }
  if (paged || ['list', 'search'].includes(operation.verb)) withLimit(command);
  if (paged) {
    const limit = operation.parameters.find((p) => p.paging === 'limit');
    const min = limit?.minimum ?? 1;
    const max = limit?.maximum ?? 1024;
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
  if (service.majors === true) command.addOption(majorOption(context.liabilityMajors));
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
      runOperation(context, service, operation, invoked, session),
    );
  });
}

/**
 * A command for every operation of every service, from the operation tables of the service
 * packages: `partner-apis <service> <resource> <verb>`, path parameters as arguments, query
 * parameters as options typed from the spec, a body from `--data`, paged reads streamed with
 * `--page-size` and `--prefetch`. An operation added to a spec is a command after
 * `pnpm generate` and a build, with no edit here.
 *
 * @example
 * registerOperationCommands(program, context);
 */
export function registerOperationCommands(
  program: Command,
  context: CommandContext,
  services: readonly OperationService[] = operationServices(context),
): void {
  for (const service of services) {
    const known = program.commands.some((command) => command.name() === service.name);
    const serviceCommand = group(program, service.name, service.description);
    if (!known) {
      serviceCommand.addHelpText(
        'after',
        examples(
          Object.values(service.operations).map((operation) => exampleOf(service.name, operation)),
        ),
      );
    }
    const byResource = new Map<string, Operation[]>();
    for (const operation of Object.values(service.operations)) {
      byResource.set(operation.resource, [
        ...(byResource.get(operation.resource) ?? []),
        operation,
      ]);
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
        for (const parameter of queryParameters(operation)) {
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
          command: `partner-apis ${service.name} ${kebab(name)} ${operation.verb}`,
          flags,
        });
        operationCommand(context, service, resource, operation);
      }
    }
  }
}
