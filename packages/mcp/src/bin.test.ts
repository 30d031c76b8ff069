import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, test } from 'vitest';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'partner-apis-mcp-'));
});
afterAll(() => rm(home, { recursive: true, force: true }));

test('--version names the command line it serves', async () => {
  const { stdout } = await run(process.execPath, [BIN, '--version']);
  const { version } = JSON.parse(
    await readFile(new URL('../../../apps/cli/package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  expect(stdout).toMatch(new RegExp(`^partner-apis ${version.replace(/\./g, '\\.')} `));
});

test('serves the reads of the services over stdio, on the embedded sandbox', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN],
    env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: home },
    cwd: home,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'partner-apis-mcp-tests', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('exposure_locations_list');
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    const answer = await client.callTool({
      name: 'approvals_approvals_list',
      arguments: { employeeNumber: '100234', query: 'employeeNumber' },
    });
    expect(answer.structuredContent).toEqual({ value: '100234' });
  } finally {
    await client.close();
  }
});
