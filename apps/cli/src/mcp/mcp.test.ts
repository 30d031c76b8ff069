import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { startSandbox } from '@partner-apis/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../cli.fixture.js';
import { createCommandContext } from '../command-context.js';
import { operationServices } from '../commands/operations.js';
import { sandboxVariables } from '../config/sandbox-variables.js';
import { AUTH_HINT } from '../error-report.js';
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
const allTools = mcpTools(await operationServices(createCommandContext(io)));
const expectedTools = allTools.filter((t) => t.operation.write !== true).map((t) => t.name);

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

  it('lists one tool per read of the four specs, with its schema', async () => {
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

  it('lists no write, and a call of one is an invalid-params error of the protocol', async () => {
    const call = callTool(session, 'liability_sellers_create', {
      body: { name: 'Nordlicht Home GmbH', address: { country: 'DE' } },
    });
    await expect(call).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    await expect(call).rejects.toThrow(/no tool liability_sellers_create/);
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
    const other = callTool(session, 'riskengineering_locations_list', {
      cursor: first.nextCursor,
    });
    await expect(other).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    const beside = callTool(session, 'exposure_locations_list', {
      cursor: first.nextCursor,
      modifiedSince: '2026-01-01',
    });
    await expect(beside).rejects.toThrow(/give cursor with maxItems and query alone/);
  });

  it('gives a service error as a tool error with its message and code', async () => {
    const answer = await callTool(session, 'liability_quotes_get', { quoteId: 'Q-none' });
    expect(answer.isError).toBe(true);
    expect(answer.content.error).toMatchObject({ code: 'not_found', status: 404 });
    const bad = await callTool(session, 'exposure_locations_list', { modifiedSince: 'Monday' });
    expect(bad.isError).toBe(true);
    // In the tool's words: its argument, not the library's `options.modifiedSince`.
    expect(bad.content.error).toMatchObject({
      code: 'invalid_argument',
      argument: 'modifiedSince',
      message: expect.stringMatching(/^exposure_locations_list: modifiedSince must be /),
    });
    expect(bad.text).not.toContain('options.');
  });

  it('fits a listing into the byte budget of one result, with the cursor for the rest', async () => {
    const whole = (await callTool(session, 'exposure_locations_list', { maxItems: 40 }))
      .content as Records;
    const small = await startMcp('stdio', ['--max-result-bytes', '4096'], home.dir);
    try {
      const first = await callTool(small, 'exposure_locations_list', { maxItems: 40 });
      expect(Buffer.byteLength(first.text)).toBeLessThanOrEqual(4096);
      const page = first.content as Records;
      expect(page.records.length).toBeGreaterThan(0);
      expect(page.records.length).toBeLessThan(40);
      const rest = (
        await callTool(small, 'exposure_locations_list', { maxItems: 40, cursor: page.nextCursor })
      ).content as Records;
      const ids = [...page.records, ...rest.records].map((record) => record.locationId);
      expect(ids).toEqual(whole.records.slice(0, ids.length).map((record) => record.locationId));
    } finally {
      await small.close();
    }
  });

  it('holds about 25 kB by default, and a query selects what comes back', async () => {
    const answer = await callTool(session, 'exposure_locations_list');
    expect(Buffer.byteLength(answer.text)).toBeLessThanOrEqual(25_000);
    expect((answer.content as Records).nextCursor).toEqual(expect.any(String));
    const ids = await callTool(session, 'exposure_locations_list', {
      maxItems: 3,
      query: '[].locationId',
    });
    expect(ids.content.records).toEqual([
      expect.stringMatching(/^LOC-/),
      expect.stringMatching(/^LOC-/),
      expect.stringMatching(/^LOC-/),
    ]);
    const one = await callTool(session, 'approvals_approvals_list', {
      employeeNumber: '100234',
      query: '{who: employeeNumber}',
    });
    expect(one.content).toEqual({ who: '100234' });
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
      const { tools } = await session.client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('liability_sellers_create');
      expect(tools.map((tool) => tool.name)).not.toContain('liability_quotes_create');
      const quote = callTool(session, 'liability_quotes_create', { body: {} });
      await expect(quote).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    } finally {
      await session.close();
    }
  });
});

describe('--tools', () => {
  it('lists only the tools it names, and refuses a name of no tool', async () => {
    const session = await startMcp('stdio', ['--tools', 'approvals_approvals_list'], home.dir);
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['approvals_approvals_list']);
    } finally {
      await session.close();
    }
    await expect(startMcp('stdio', ['--tools', 'nosuch_tool'], home.dir)).rejects.toThrow();
  });
});

describe('errors in the words of the command line', () => {
  it('a 401 carries the hint the command line gives', async () => {
    const sandbox = await startSandbox();
    try {
      const session = await startMcp('stdio', [], home.dir, {
        ...sandboxVariables(sandbox),
        PARTNER_APIS_APPROVALS_CLIENT_SECRET: 'not-the-secret',
      });
      try {
        const answer = await callTool(session, 'approvals_approvals_list', {
          employeeNumber: '100234',
        });
        expect(answer.isError).toBe(true);
        expect(answer.content.error).toMatchObject({ status: 401, hint: AUTH_HINT });
      } finally {
        await session.close();
      }
    } finally {
      await sandbox.close();
    }
  });

  it("against --env mock, the default listing gives the mocking service's records", async () => {
    // A mocking service answers every offset with the same example records.
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify([{ locationId: 'MOCK-1' }, { locationId: 'MOCK-2' }]));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const mockHome = await emptyHome();
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await writeFile(
        join(mockHome.dir, 'partner-apis.config.json'),
        JSON.stringify({ environments: { mock: { exposure: { baseUrl: `${origin}/portal` } } } }),
      );
      const session = await startMcp('stdio', ['--env', 'mock'], mockHome.dir);
      try {
        const answer = await callTool(session, 'exposure_locations_list');
        expect(answer.isError).toBe(false);
        expect((answer.content as Records).records.map((r) => r.locationId)).toEqual([
          'MOCK-1',
          'MOCK-2',
        ]);
      } finally {
        await session.close();
      }
    } finally {
      server.close();
      await mockHome.remove();
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
