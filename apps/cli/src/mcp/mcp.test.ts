import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../cli.fixture.js';
import { createCommandContext } from '../command-context.js';
import { operationServices } from '../commands/operations.js';
import {
  callTool,
  emptyHome,
  startMcp,
  type McpSession,
  type TransportName,
} from './mcp.fixture.js';
import { mcpTools } from './tools.js';

// These tests run the built CLI (`node dist/bin.js mcp`) against its embedded sandbox, and talk
// to it with the MCP SDK's own client, as an assistant's host does.

const io = { stdout: process.stdout, stderr: process.stderr, env: {}, cwd: process.cwd() };
const expectedTools = mcpTools(await operationServices(createCommandContext(io))).map((t) => t.name);

let home: Awaited<ReturnType<typeof emptyHome>>;
beforeAll(async () => {
  home = await emptyHome();
});
afterAll(async () => {
  await home?.remove();
});

type Records = { records: { locationId?: string }[]; nextCursor?: string };

describe.each<TransportName>(['stdio', 'http'])('partner-apis mcp over %s', (transport) => {
  let session: McpSession;
  beforeAll(async () => {
    session = await startMcp(transport, [], home.dir);
  });
  afterAll(async () => {
    await session?.close();
  });

  it('lists one tool per operation of the four specs, with its schema', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expectedTools);
    const approvals = tools.find((tool) => tool.name === 'approvals_approvals_list');
    expect(approvals?.inputSchema.required).toEqual(['employeeNumber']);
    expect(approvals?.annotations?.readOnlyHint).toBe(true);
  });

  it('reads exposure locations and approvals from the sandbox', async () => {
    const locations = await callTool(session, 'exposure_locations_list', { maxItems: 5 });
    expect(locations.isError).toBe(false);
    const { records } = locations.content as Records;
    expect(records).toHaveLength(5);
    expect(records[0]?.locationId).toMatch(/^LOC-/);
    const approvals = await callTool(session, 'approvals_approvals_list', {
      employeeNumber: '100234',
    });
    expect(approvals.isError).toBe(false);
    expect(approvals.content).toMatchObject({ employeeNumber: '100234' });
    expect(approvals.content.requisitionApprovals).not.toHaveLength(0);
    expect(JSON.parse(approvals.text)).toEqual(approvals.content);
  });

  it('refuses a write, and says how to allow it', async () => {
    const answer = await callTool(session, 'liability_sellers_create', {
      body: { name: 'Nordlicht Home GmbH', address: { country: 'DE' } },
    });
    expect(answer.isError).toBe(true);
    expect(answer.content.error).toMatchObject({ code: 'write_refused' });
    expect(answer.text).toContain('--allow-writes');
    expect(answer.text).toContain('--allow-tools liability_sellers_create');
  });
});

describe('a paged read', () => {
  let session: McpSession;
  beforeAll(async () => {
    session = await startMcp('stdio', [], home.dir);
  });
  afterAll(async () => {
    await session?.close();
  });

  it('returns at most maxItems records and a cursor that continues after them', async () => {
    const whole = (await callTool(session, 'exposure_locations_list', { maxItems: 9 }))
      .content as Records;
    const ids: (string | undefined)[] = [];
    let answer = (await callTool(session, 'exposure_locations_list', { maxItems: 3 }))
      .content as Records;
    for (let call = 0; call < 3; call += 1) {
      expect(answer.records).toHaveLength(3);
      ids.push(...answer.records.map((record) => record.locationId));
      answer = (
        await callTool(session, 'exposure_locations_list', {
          maxItems: 3,
          cursor: answer.nextCursor,
        })
      ).content as Records;
    }
    expect(ids).toEqual(whole.records.map((record) => record.locationId));
  });

  it('returns 100 records when no maxItems is given', async () => {
    const answer = (await callTool(session, 'riskengineering_gradings_list')).content as Records;
    expect(answer.records).toHaveLength(100);
    expect(answer.nextCursor).toEqual(expect.any(String));
  });

  it('refuses a cursor of another tool, and arguments beside a cursor', async () => {
    const first = (await callTool(session, 'exposure_locations_list', { maxItems: 1 }))
      .content as Records;
    const other = await callTool(session, 'riskengineering_locations_list', {
      cursor: first.nextCursor,
    });
    expect(other.isError).toBe(true);
    expect(other.content.error).toMatchObject({ code: 'invalid_argument' });
    const beside = await callTool(session, 'exposure_locations_list', {
      cursor: first.nextCursor,
      modifiedSince: '2026-01-01',
    });
    expect(beside.text).toContain('give cursor with maxItems alone');
  });

  it('gives a service error as a tool error with its message and code', async () => {
    const answer = await callTool(session, 'liability_quotes_get', { quoteId: 'Q-none' });
    expect(answer.isError).toBe(true);
    expect(answer.content.error).toMatchObject({ code: 'not_found', status: 404 });
    const bad = await callTool(session, 'exposure_locations_list', { modifiedSince: 'Monday' });
    expect(bad.isError).toBe(true);
    expect(bad.content.error).toMatchObject({ name: 'InvalidArgumentError' });
    expect(bad.text).toContain('modifiedSince');
  });
});

describe('writes', () => {
  const seller = { name: 'Nordlicht Home GmbH', address: { country: 'DE' } };

  it('are made with --allow-writes', async () => {
    const session = await startMcp('stdio', ['--allow-writes'], home.dir);
    try {
      const created = await callTool(session, 'liability_sellers_create', { body: seller });
      expect(created.isError).toBe(false);
      expect(created.content).toMatchObject({ name: seller.name });
    } finally {
      await session.close();
    }
  });

  it('are made for the tools of --allow-tools alone', async () => {
    const session = await startMcp('http', ['--allow-tools', 'liability_sellers_create'], home.dir);
    try {
      const created = await callTool(session, 'liability_sellers_create', { body: seller });
      expect(created.isError).toBe(false);
      const quote = await callTool(session, 'liability_quotes_create', { body: {} });
      expect(quote.content.error).toMatchObject({ code: 'write_refused' });
    } finally {
      await session.close();
    }
  });
});

describe('Streamable HTTP', () => {
  it('refuses a request whose Host is not this machine', async () => {
    const session = await startMcp('http', [], home.dir);
    try {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const sent = request(session.url!, {
          method: 'POST',
          headers: { host: 'attacker.example', 'content-type': 'application/json' },
        });
        sent.once('response', (response) => {
          response.resume();
          resolve(response.statusCode);
        });
        sent.once('error', reject);
        sent.end('{}');
      });
      expect(status).toBe(403);
    } finally {
      await session.close();
    }
  });
});

describe('over stdio, a client that closes stdin right after its requests', () => {
  it('gets every answer, and the server ends', async () => {
    const requests = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'sh', version: '1' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'approvals_approvals_list', arguments: { employeeNumber: '100234' } },
      },
    ];
    const child = spawn(process.execPath, [BIN, 'mcp'], {
      env: { PATH: process.env.PATH ?? '', HOME: home.dir, XDG_CONFIG_HOME: home.dir },
      cwd: home.dir,
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const code = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end(requests.map((line) => `${JSON.stringify(line)}\n`).join(''));
    expect(await code).toBe(0);
    const answers = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; result: { structuredContent?: object } });
    expect(answers.map((answer) => answer.id)).toEqual([1, 2]);
    expect(answers[1]?.result.structuredContent).toMatchObject({ employeeNumber: '100234' });
  });
});
