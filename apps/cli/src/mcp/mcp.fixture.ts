import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BIN } from '../cli.fixture.js';

/** A connected MCP client of `partner-apis mcp`, what the server wrote to stderr, and its end. */
export interface McpSession {
  readonly client: Client;
  /** The endpoint, over Streamable HTTP. */
  readonly url?: URL;
  /** The server's stderr so far: notes, warnings and the `--debug` log. */
  stderr(): string;
  close(): Promise<void>;
}

/** How a test reaches the server: the SDK's own client transports. */
export type TransportName = 'stdio' | 'http';

/**
 * A folder with no config file, as home and working directory, so that the CLI reads no
 * settings of the developer's and starts its embedded sandbox.
 */
export async function emptyHome(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'partner-apis-mcp-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The environment of the server: nothing of the developer's shell but PATH, and `extra`. */
function serverEnv(home: string, extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: home, ...extra };
}

async function stdioSession(
  args: readonly string[],
  home: string,
  env: Record<string, string>,
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: serverEnv(home, env),
    cwd: home,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'partner-apis-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

async function httpSession(
  args: readonly string[],
  home: string,
  env: Record<string, string>,
): Promise<McpSession> {
  const child = spawn(process.execPath, [BIN, 'mcp', '--http', '0', ...args], {
    env: serverEnv(home, env),
    cwd: home,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const at = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
      if (at !== undefined) resolve(new URL(at));
    });
    child.once('exit', (code) => reject(new Error(`the server ended (${code}): ${stderr}`)));
  });
  const client = new Client({ name: 'partner-apis-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url));
  return {
    client,
    url,
    stderr: () => stderr,
    async close() {
      await client.close();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

/**
 * Starts the built `partner-apis mcp` with `args` and connects the SDK's `Client` to it over
 * `transport`: stdio, or Streamable HTTP on a free port of 127.0.0.1.
 *
 * @example
 * const session = await startMcp('stdio', ['--allow-writes'], home);
 * const { tools } = await session.client.listTools();
 */
export function startMcp(
  transport: TransportName,
  args: readonly string[],
  home: string,
  env: Record<string, string> = {},
): Promise<McpSession> {
  return transport === 'stdio' ? stdioSession(args, home, env) : httpSession(args, home, env);
}

/** What a tool answered: its structured content, and whether it is a tool error. */
export async function callTool(
  session: McpSession,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ content: Record<string, unknown>; text: string; isError: boolean }> {
  const answer = await session.client.callTool({ name, arguments: args });
  const [first] = answer.content as { type: string; text: string }[];
  return {
    content: answer.structuredContent as Record<string, unknown>,
    text: first?.text ?? '',
    isError: answer.isError === true,
  };
}
