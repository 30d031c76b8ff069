import { once } from 'node:events';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from './program.js';
import { readServiceList } from './service-registry.js';
import { servicesWithMuseum } from './service-registry.fixture.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

let servicesFile: string;
let origin: string;
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
const server = createServer((request, response) => {
  seen.push({ url: request.url ?? '', headers: request.headers });
  if (request.url?.startsWith('/tickets/')) {
    response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    return;
  }
  response
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify([{ date: '2026-01-01', timeOpen: '09:00', timeClose: '18:00' }]));
});

beforeAll(async () => {
  servicesFile = await servicesWithMuseum();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

function io(stdin?: PassThrough) {
  let out = '';
  let err = '';
  const stdout = new PassThrough();
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('latin1')));
  const stderr = new PassThrough();
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const env = {
    PARTNER_APIS_MUSEUM_BASE_URL: origin,
    PARTNER_APIS_MUSEUM_USERNAME: 'visitor',
    PARTNER_APIS_MUSEUM_PASSWORD: 'open-sesame-1234',
  };
  const cwd = dirname(servicesFile);
  return { io: { stdout, stderr, stdin, env, cwd }, out: () => out, err: () => err };
}

/** The SDK's client over the streams of an in-process server: the stdio framing, no process. */
function streamTransport(toServer: PassThrough, fromServer: PassThrough): Transport {
  const buffer = new ReadBuffer();
  const transport: Transport = {
    start: async () => {
      fromServer.on('data', (chunk: Buffer) => {
        buffer.append(chunk);
        for (let message = buffer.readMessage(); message !== null; message = buffer.readMessage()) {
          transport.onmessage?.(message);
        }
      });
    },
    send: async (message: JSONRPCMessage) => {
      toServer.write(serializeMessage(message));
    },
    close: async () => {
      toServer.end();
    },
  };
  return transport;
}

describe('a service added to services.json, with no code edit', () => {
  test('the list is checked: a name is a command word', () => {
    expect(readServiceList().map((entry) => entry.name)).toEqual([
      'exposure',
      'riskengineering',
      'liability',
      'approvals',
    ]);
    expect(() =>
      readServiceList(
        join(dirname(servicesFile), 'node_modules/@partner-apis/museum/package.json'),
      ),
    ).toThrow(/must be a list of \{ "name"/);
  });

  test('is `partner-apis museum <resource> <verb>`, its header parameter a flag', async () => {
    const run = io();
    const code = await runCli(
      [
        'museum',
        'hours',
        'get',
        '--start-date',
        '2026-01-01',
        '--x-museum-branch',
        'north',
        '-o',
        'json',
      ],
      run.io,
      { servicesFile },
    );
    expect({ code, err: run.err() }).toEqual({ code: 0, err: '' });
    expect(JSON.parse(run.out())).toEqual([
      { date: '2026-01-01', timeOpen: '09:00', timeClose: '18:00' },
    ]);
    const request = seen.at(-1)!;
    expect(request.url).toBe('/museum-hours?startDate=2026-01-01');
    expect(request.headers['x-museum-branch']).toBe('north');
    expect(request.headers.authorization).toBe(
      `Basic ${Buffer.from('visitor:open-sesame-1234').toString('base64')}`,
    );
    expect(request.headers['user-agent']).toBe('partner-apis-cli');
  });

  test('takes its settings from a config file, named as its variables are', async () => {
    const run = io();
    const cwd = run.io.cwd;
    await writeFile(
      join(cwd, 'partner-apis.config.json'),
      JSON.stringify({
        environments: {
          uat: { museum: { baseUrl: origin, username: 'curator', password: 'back-door-5678' } },
        },
      }),
    );
    const code = await runCli(
      ['--env', 'uat', 'museum', 'hours', 'get'],
      { ...run.io, env: {} },
      {
        servicesFile,
      },
    );
    await rm(join(cwd, 'partner-apis.config.json'));
    expect({ code, err: run.err() }).toEqual({ code: 0, err: '' });
    expect(seen.at(-1)!.headers.authorization).toBe(
      `Basic ${Buffer.from('curator:back-door-5678').toString('base64')}`,
    );
  });

  test('a binary answer goes to --out, and is refused on a terminal', async () => {
    const run = io();
    const code = await runCli(['museum', 'tickets', 'get-code', 'T-1', '--out', 'qr.png'], run.io, {
      servicesFile,
    });
    expect({ code, err: run.err() }).toEqual({ code: 0, err: '' });
    expect(await readFile(join(dirname(servicesFile), 'qr.png'))).toEqual(PNG);
    const terminal = io();
    Object.assign(terminal.io.stdout, { isTTY: true });
    const refused = await runCli(['museum', 'tickets', 'get-code', 'T-1'], terminal.io, {
      servicesFile,
    });
    expect(refused).toBe(2);
    expect(terminal.err()).toMatch(/the answer is binary \(image\/png\): give --out FILE/);
  });

  test('is MCP tools: its reads listed, its write not unless allowed', async () => {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const run = io(toServer);
    run.io.stdout.pipe(fromServer);
    const serving = runCli(['mcp'], run.io, { servicesFile });
    const client = new Client({ name: 'partner-apis-tests', version: '1.0.0' });
    await client.connect(streamTransport(toServer, fromServer));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['museum_hours_get', 'museum_tickets_get_code']);
    const hours = tools.find((tool) => tool.name === 'museum_hours_get')!;
    expect(Object.keys(hours.inputSchema.properties ?? {})).toEqual([
      'startDate',
      'X-Museum-Branch',
      'query',
      'maxItems',
      'cursor',
    ]);
    const answer = await client.callTool({
      name: 'museum_hours_get',
      arguments: { 'X-Museum-Branch': 'south', query: '[].timeOpen' },
    });
    expect(answer.structuredContent).toEqual({ records: ['09:00'] });
    expect(seen.at(-1)!.headers['x-museum-branch']).toBe('south');
    await client.close();
    expect(await serving).toBe(0);
  });
});
