// @ts-check
import { execFile } from 'node:child_process';
import { readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startPrismMock } from '@partner-apis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyWorkspace } from './spec-change-rehearsal.js';

/** The Museum API: a public OpenAPI 3.1 document nobody here wrote (see its README). */
const MUSEUM = fileURLToPath(new URL('../fixtures/museum/openapi.yaml', import.meta.url));
const EVENT = 'dad4bce8-f5cb-4078-a211-995864315e39';

/**
 * The consumer: every operation of the Museum API through its generated method, compiled with
 * `tsc --strict` (so every answer is typed as the spec says), then run against Prism.
 */
const CONSUMER = `
import { createMuseumClient, type MuseumDailyHours, type SpecialEvent } from '@partner-apis/museum';

const museum = createMuseumClient({
  baseUrl: '__BASE_URL__',
  credentials: { clientId: 'visitor', clientSecret: 'not-checked-by-prism' },
});
const hours: MuseumDailyHours[] = await museum.museumHours.get({ startDate: '2023-09-11', page: 2, limit: 10 });
const events: SpecialEvent[] = await museum.specialEvents.list({ startDate: new Date('2023-09-11'), endDate: '2023-09-30' });
const created: SpecialEvent = await museum.specialEvents.create({
  name: 'Pirate Coding Workshop',
  location: 'Computer Room',
  eventDescription: 'Captain Blackbeard shares his love of the C language.',
  dates: ['2023-10-29'],
  price: 25,
});
const one = await museum.specialEvents.get('${EVENT}');
const updated = await museum.specialEvents.update('${EVENT}', { price: 30 });
const deleted: void = await museum.specialEvents.delete('${EVENT}');
const ticket = await museum.museumTickets.buy({ ticketType: 'general', ticketDate: '2023-09-07', email: 'todd@example.com' });
const code: Blob = await museum.ticketCodes.get(ticket.ticketId ?? '${EVENT}');
let refused = '';
try {
  await museum.museumHours.get({ limit: 31 } as never);
} catch (error) {
  refused = (error as Error).constructor.name + ': ' + (error as Error).message;
}
console.log(JSON.stringify({
  hours: hours.length,
  firstDay: hours[0]?.date,
  events: events.map((event) => event.name).slice(0, 2),
  created: created.name,
  one: typeof one.eventId,
  updated: typeof updated.price,
  deleted: deleted === undefined,
  ticket: ticket.message,
  code: { type: code.type, text: await code.text() },
  refused,
}));
`;

/** @type {Awaited<ReturnType<typeof copyWorkspace>>} */
let workspace;
/** @type {Awaited<ReturnType<typeof startPrismMock>>} */
let prism;
/** @type {Record<string, any>} */
let result;
/** @type {string[]} */
let written;
/** The copy's command line, and the variables that point the new service at Prism. */
let cli = '';
/** @type {Record<string, string>} */
let env = {};

beforeAll(async () => {
  // The four services come along: the MCP server lists the tools of every service.
  const four = ['exposure', 'riskengineering', 'liability', 'approvals'];
  workspace = await copyWorkspace(['sandbox', 'release', ...four], ['cli']);
  const out = await workspace.run(['packages/codegen/src/new-service-cli.js', 'museum', MUSEUM]);
  written = out
    .split('\n')
    .filter((line) => line.startsWith('wrote '))
    .map((l) => l.slice(6));
  await workspace.install('museum');
  await workspace.regenerate('museum');
  await workspace.build('museum');
  prism = await startPrismMock(join(workspace.root, 'specs/museum/openapi.yaml'));
  const consumer = CONSUMER.replace('__BASE_URL__', prism.url);
  result = JSON.parse(await workspace.runConsumer(consumer, ['museum']));
  // The command line finds the package as `pnpm install` links it beside the four.
  await symlink(
    join(workspace.root, 'packages/museum'),
    join(workspace.root, 'apps/cli/node_modules/@partner-apis/museum'),
    'dir',
  );
  cli = join(workspace.root, 'apps/cli/dist/bin.js');
  env = {
    PATH: process.env.PATH ?? '',
    HOME: workspace.root,
    PARTNER_APIS_MUSEUM_BASE_URL: prism.url,
    PARTNER_APIS_MUSEUM_CLIENT_ID: 'visitor',
    PARTNER_APIS_MUSEUM_CLIENT_SECRET: 'not-checked-by-prism',
  };
}, 300_000);

afterAll(async () => {
  await prism?.close();
  await workspace?.remove();
});

describe('a new service is a spec away: pnpm new-service museum <its spec>', () => {
  it('writes the package, its sandbox document, its command-line entry and a changeset', async () => {
    expect(written).toEqual(
      expect.arrayContaining([
        'packages/museum/package.json',
        'packages/museum/src/client.ts',
        'packages/sandbox/codegen.json',
        'apps/cli/services.json',
        '.changeset/new-service-museum.md',
      ]),
    );
    const services = JSON.parse(
      await readFile(join(workspace.root, 'apps/cli/services.json'), 'utf8'),
    );
    expect(services).toContainEqual({
      name: 'museum',
      package: '@partner-apis/museum',
      description: 'Redocly Museum API',
    });
  });

  it('calls every operation through its generated method, typed, with the answer Prism gives', () => {
    expect(result).toMatchObject({
      hours: expect.any(Number),
      firstDay: '2023-09-11',
      events: expect.arrayContaining([expect.any(String)]),
      created: expect.any(String),
      one: 'string',
      updated: 'number',
      deleted: true,
      ticket: 'Museum general entry ticket purchased',
    });
    expect(result.hours).toBeGreaterThan(0);
  });

  it('reads the PNG of a ticket as a Blob of its content type', () => {
    expect(result.code).toEqual({ type: 'image/png', text: expect.any(String) });
    expect(result.code.text.length).toBeGreaterThan(0);
  });

  it('refuses before sending what the spec states, naming the parameter', () => {
    expect(result.refused).toBe(
      'InvalidArgumentError: museumHours.get: limit must be an integer of at most 30 (got 31)',
    );
  });

  it('is commands of the command line, its query parameters flags', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [cli, 'museum', 'museum-hours', 'get', '--start-date', '2023-09-11', '-o', 'json'],
      { cwd: workspace.root, env },
    );
    expect(JSON.parse(stdout)[0]).toMatchObject({ date: '2023-09-11' });
  });

  it('is tools of the MCP server, the writes listed only when allowed', async () => {
    /** @param {string[]} args */
    const toolsOf = async (args) => {
      const client = new Client({ name: 'new-service-rehearsal', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [cli, 'mcp', ...args],
          cwd: workspace.root,
          env,
          stderr: 'ignore',
        }),
      );
      try {
        const { tools } = await client.listTools();
        const hours = await client.callTool({
          name: 'museum_museum_hours_get',
          arguments: { startDate: '2023-09-11', query: '[0].date' },
        });
        return { names: tools.map((tool) => tool.name), hours: hours.structuredContent };
      } finally {
        await client.close();
      }
    };
    const reads = await toolsOf([]);
    expect(reads.names).toEqual(
      expect.arrayContaining(['museum_museum_hours_get', 'museum_ticket_codes_get']),
    );
    expect(reads.names).not.toContain('museum_special_events_create');
    expect(reads.hours).toEqual({ records: '2023-09-11' });
    const all = await toolsOf(['--allow-writes']);
    expect(all.names).toContain('museum_special_events_create');
  });
});
