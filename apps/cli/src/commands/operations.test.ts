import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { Command, CommanderError } from 'commander';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, runBuiltCli } from '../cli.fixture.js';
import { createCommandContext } from '../command-context.js';
import { sandboxVariables } from '../config/sandbox-variables.js';
import { configureHelp } from '../help-format.js';
import { createProgram } from '../program.js';
import {
  kebab,
  operationServices,
  registerServiceCommands,
  type Operation,
  type OperationService,
} from './operations.js';

function io() {
  let out = '';
  const stdout = new PassThrough();
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return { io: { stdout, stderr: new PassThrough(), env: {}, cwd: process.cwd() }, out: () => out };
}

function find(program: Command, words: readonly string[]): Command | undefined {
  let command: Command | undefined = program;
  for (const word of words) command = command?.commands.find((sub) => sub.name() === word);
  return command;
}

describe('commands from the operation tables', () => {
  test('every operation of every service is `partner-apis <service> <resource> <verb>`', async () => {
    const { program, context } = await createProgram(io().io);
    const services = await operationServices(context);
    expect(services.map((service) => service.name)).toEqual([
      'exposure',
      'riskengineering',
      'liability',
      'approvals',
    ]);
    for (const service of services) {
      const operations = Object.values(service.operations);
      expect(operations.length).toBeGreaterThan(0);
      for (const operation of operations) {
        const words = [service.name, kebab(operation.resource), operation.verb];
        const command = find(program, words);
        expect(command, words.join(' ')).toBeDefined();
        const help = command!.helpInformation();
        expect(help).toContain(operation.summary ?? operation.operationId);
        for (const parameter of operation.parameters) {
          if (parameter.in === 'query' && parameter.paging === undefined) {
            expect(help, words.join(' ')).toContain(`--${kebab(parameter.name)} <`);
          }
          if (parameter.in === 'path') expect(command!.usage()).toContain(`<${parameter.name}>`);
        }
        // A convenience that builds the body (a seller from --name) makes --data optional.
        const convenience = ['sellers.create', 'quotes.create', 'statementOfValues.submit'];
        if (operation.body?.required === true) {
          expect(help.replace(/\s+/g, ' ')).toMatch(
            convenience.includes(`${operation.resource}.${operation.verb}`)
              ? /--data <json> the request body: JSON, @file of JSON, or - for stdin (?!\(required\))/
              : /--data <json> the request body[^(]*\(required\)/,
          );
        }
      }
    }
    expect(find(program, ['exposure', 'locations', 'list'])!.helpInformation()).toMatch(
      /--page-size <n>\s+records per request, 1–1024 \(default: 1024\)/,
    );
  });

  describe('a paged read added to a spec', () => {
    const widgets: Operation = {
      operationId: 'listWidgets',
      resource: 'widgets',
      verb: 'list',
      method: 'GET',
      path: '/widgets',
      summary: 'List widgets',
      arguments: [{ in: 'params', required: true }],
      paging: { pageSize: 50, records: null, itemType: 'object' },
      security: [],
      parameters: [
        { name: 'colour', in: 'query', required: true, type: 'string', enum: ['red', 'blue'] },
        { name: 'minWeight', in: 'query', required: false, type: 'integer' },
        { name: 'inStock', in: 'query', required: false, type: 'boolean' },
        {
          name: 'limit',
          in: 'query',
          required: false,
          type: 'integer',
          minimum: 1,
          maximum: 50,
          paging: 'limit',
        },
        {
          name: 'offset',
          in: 'query',
          required: false,
          type: 'integer',
          minimum: 0,
          paging: 'offset',
        },
      ],
      response: { kind: 'json', type: 'array' },
    };
    const calls: Record<string, unknown>[] = [];
    const service: OperationService = {
      name: 'shop',
      description: 'a service of widgets',
      operations: { listWidgets: widgets },
      client: () =>
        Promise.resolve({
          widgets: {
            list: (query: Record<string, unknown>) => {
              calls.push(query);
              return {
                async *pages() {
                  yield { records: [{ widgetId: 'W-1' }, { widgetId: 'W-2' }] };
                  yield { records: [{ widgetId: 'W-3' }] };
                },
              };
            },
          },
        }),
    };

    function program() {
      const cli = io();
      const context = createCommandContext(cli.io);
      const root = new Command('partner-apis').exitOverride();
      root.configureOutput({ writeErr: () => {}, writeOut: () => {} });
      configureHelp(root, 200);
      registerServiceCommands(root, context, service);
      return { root, context, out: cli.out };
    }

    test('is a command with its query parameters as options and the paging options', async () => {
      const { root, out } = program();
      const list = find(root, ['shop', 'widgets', 'list'])!;
      expect(list.helpInformation()).toMatch(
        /--colour <value>.*\(choices: "red", "blue"\).*\(required\)/s,
      );
      expect(list.helpInformation()).toMatch(
        /--page-size <n>\s+records per request, 1–50 \(default: 50\)/,
      );
      await root.parseAsync(
        [
          'shop',
          'widgets',
          'list',
          '--colour',
          'red',
          '--min-weight',
          '3',
          '--in-stock',
          'true',
          '-o',
          'ndjson',
          '--page-size',
          '2',
        ],
        { from: 'user' },
      );
      expect(calls).toEqual([
        { colour: 'red', minWeight: 3, inStock: true, pageSize: 2, prefetch: 4 },
      ]);
      expect(out()).toBe('{"widgetId":"W-1"}\n{"widgetId":"W-2"}\n{"widgetId":"W-3"}\n');
    });

    test('a value not of its type in the spec is a usage error before any request', async () => {
      const { root } = program();
      calls.length = 0;
      const failure = root.parseAsync(
        ['shop', 'widgets', 'list', '--colour', 'red', '--min-weight', 'heavy'],
        { from: 'user' },
      );
      await expect(failure).rejects.toBeInstanceOf(CommanderError);
      await expect(failure).rejects.toThrow(/--min-weight <integer>.*must be a whole number/);
      const green = root.parseAsync(['shop', 'widgets', 'list', '--colour', 'green'], {
        from: 'user',
      });
      await expect(green).rejects.toThrow(/Allowed choices are red, blue/);
      const maybe = root.parseAsync(
        ['shop', 'widgets', 'list', '--colour', 'red', '--in-stock', 'maybe'],
        { from: 'user' },
      );
      await expect(maybe).rejects.toThrow(/must be true or false/);
      expect(calls).toEqual([]);
    });
  });

  test('a parameter named as an option of the command line is --param-<name>: neither hides the other', async () => {
    const sent: Record<string, unknown>[] = [];
    const events: Operation = {
      operationId: 'listSpecialEvents',
      resource: 'specialEvents',
      verb: 'list',
      method: 'GET',
      path: '/special-events',
      arguments: [{ in: 'params', required: false }],
      security: [],
      parameters: [
        { name: 'limit', in: 'query', required: false, type: 'integer', maximum: 30 },
        { name: 'query', in: 'query', required: false, type: 'string' },
      ],
      response: { kind: 'json', type: 'array' },
    };
    const cli = io();
    const root = new Command('partner-apis').exitOverride();
    registerServiceCommands(root, createCommandContext(cli.io), {
      name: 'museum',
      description: 'a museum',
      operations: { listSpecialEvents: events },
      client: () =>
        Promise.resolve({
          specialEvents: {
            list: (params: Record<string, unknown>) => {
              sent.push(params);
              return Promise.resolve([{ name: 'A' }, { name: 'B' }, { name: 'C' }]);
            },
          },
        }),
    });
    await root.parseAsync(
      [
        'museum',
        'special-events',
        'list',
        '--param-limit',
        '3',
        '--param-query',
        'pirates',
        '--limit',
        '2',
        '--query',
        '[].name',
        '-o',
        'json',
      ],
      { from: 'user' },
    );
    expect(sent).toEqual([{ limit: 3, query: 'pirates' }]);
    expect(JSON.parse(cli.out())).toEqual(['A', 'B']);
  });
});

describe('operations against the sandbox', () => {
  let sb: Sandbox;
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'partner-apis-operations-'));
    sb = await startSandbox({ sizes: { exposureLocations: 30, riskLocations: 30, gradings: 30 } });
    env = { PATH: process.env.PATH ?? '', HOME: dir, ...sandboxVariables(sb) };
  });
  afterAll(() => sb?.close());

  const seller = { name: 'Kettle & Co', address: { country: 'NL' } };

  test('a body from --data JSON, @file or - (stdin); the path parameter as an argument', async () => {
    const inline = await runBuiltCli(
      ['liability', 'sellers', 'create', '--data', JSON.stringify(seller), '-o', 'json'],
      env,
      dir,
    );
    expect(inline).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(inline.stdout)).toMatchObject({
      ...seller,
      sellerId: expect.stringMatching(/^SEL-/),
    });

    await writeFile(join(dir, 'seller.json'), JSON.stringify(seller));
    const fromFile = await runBuiltCli(
      ['liability', 'sellers', 'create', '--data', '@seller.json', '-o', 'json'],
      env,
      dir,
    );
    const { sellerId } = JSON.parse(fromFile.stdout) as { sellerId: string };

    const child = spawn(
      process.execPath,
      [BIN, 'liability', 'quotes', 'create', '--data', '-', '-o', 'json'],
      { env, cwd: dir },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stdin.end(
      JSON.stringify({
        productId: 'QuoteA3P',
        policyLines: [
          {
            id: 'liability',
            declarativeQuestionAnswers: { countryOfSales: 'EU-ASIA', territoryOfSales: 'NON-US' },
          },
        ],
        insureds: [{ sellerId }],
      }),
    );
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    const { quoteId } = JSON.parse(stdout) as { quoteId: string };

    const got = await runBuiltCli(['liability', 'quotes', 'get', quoteId, '-o', 'json'], env, dir);
    expect(JSON.parse(got.stdout)).toMatchObject({ quoteId });
    const found = await runBuiltCli(
      ['liability', 'quotes', 'search', '--seller-id', sellerId, '-o', 'ndjson'],
      env,
      dir,
    );
    expect(found.stdout.trim().split('\n')).toHaveLength(1);
  });

  test('a --data that is not JSON is a usage error; nothing is sent', async () => {
    const before = sb.stats().routes['liability.createSeller']?.requests ?? 0;
    const result = await runBuiltCli(
      ['liability', 'sellers', 'create', '--data', '{name:'],
      env,
      dir,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --data is not JSON: /);
    expect(sb.stats().routes['liability.createSeller']?.requests ?? 0).toBe(before);
  });

  test('a paged read streams in every format; the resource alone lists, as before', async () => {
    for (const format of ['json', 'ndjson', 'csv', 'table']) {
      const result = await runBuiltCli(
        ['riskengineering', 'gradings', 'list', '-o', format, '--page-size', '7'],
        env,
        dir,
      );
      expect({ format, code: result.code }).toEqual({ format, code: 0 });
      expect(result.stdout).toContain('gradingId');
    }
    const alias = await runBuiltCli(['riskengineering', 'gradings', '-o', 'ndjson'], env, dir);
    expect(alias.stdout.trim().split('\n')).toHaveLength(30);
  });
});
