import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from './call-tool.js';
import type { McpTool } from './tools.js';

/** Runs one tool call; a failure is a tool result with `isError`, never a thrown error. */
export type CallTool = (
  name: string,
  args: Record<string, unknown> | undefined,
) => Promise<ToolResult>;

/** The path the Streamable HTTP endpoint answers on, as MCP clients expect it. */
const MCP_PATH = '/mcp';

function version(): string {
  const manifest = JSON.parse(
    readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  return manifest.version;
}

/**
 * An MCP server (the SDK's low-level `Server`) whose tools are `tools`, each answered by `call`.
 */
function createMcpServer(tools: readonly McpTool[], call: CallTool): Server {
  const server = new Server(
    { name: 'partner-apis', version: version() },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, title, description, inputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema,
      annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    call(request.params.name, request.params.arguments),
  );
  return server;
}

/**
 * Serves over stdio until the client closes stdin; calls still running then are answered first.
 */
export async function serveStdio(
  tools: readonly McpTool[],
  call: CallTool,
  stdin: Readable,
  stdout: Writable,
): Promise<void> {
  const running = new Set<Promise<ToolResult>>();
  const server = createMcpServer(tools, (name, args) => {
    const answer = call(name, args);
    running.add(answer);
    // A refused call rejects: the SDK answers it with its error; nothing is left unhandled.
    answer.finally(() => running.delete(answer)).catch(() => {});
    return answer;
  });
  const ended = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
  });
  await server.connect(new StdioServerTransport(stdin, stdout));
  await ended;
  // A client may close stdin right after its last request (a script piping requests in).
  await Promise.allSettled(running);
  // The answers are sent once their calls settle: one turn of the event loop later.
  await new Promise((resolve) => setImmediate(resolve));
  await server.close();
}

/** `Host` names of this machine: any other is a DNS rebinding attempt from a web page. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

function fromThisMachine(request: IncomingMessage): boolean {
  const host = request.headers.host?.replace(/:\d+$/, '');
  const { origin } = request.headers;
  const originHost =
    origin === undefined || !URL.canParse(origin) ? undefined : new URL(origin).hostname;
  return (
    host !== undefined &&
    LOOPBACK_NAMES.includes(host) &&
    (origin === undefined || LOOPBACK_NAMES.includes(originHost ?? ''))
  );
}

function refuse(response: ServerResponse, status: number, message: string): void {
  response
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * Serves Streamable HTTP on 127.0.0.1 at `port` (0 for any free one), stateless: each POST to
 * `/mcp` gets a server of its own over the shared tools, so no client's session outlives its
 * request. Requests whose `Host` or `Origin` is not this machine are refused.
 */
export async function serveHttp(
  tools: readonly McpTool[],
  call: CallTool,
  port: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer((request, response) => {
    if (!fromThisMachine(request)) {
      refuse(
        response,
        403,
        'only clients on this machine (Host and Origin 127.0.0.1 or localhost)',
      );
      return;
    }
    if (new URL(request.url ?? '/', 'http://127.0.0.1').pathname !== MCP_PATH) {
      refuse(response, 404, `the MCP endpoint is ${MCP_PATH}`);
      return;
    }
    if (request.method !== 'POST') {
      refuse(response, 405, 'this server is stateless: POST only');
      return;
    }
    const server = createMcpServer(tools, call);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    response.once('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(request, response))
      .catch((error: unknown) => {
        if (!response.headersSent) refuse(response, 500, (error as Error).message);
      });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', resolve);
  });
  const { port: bound } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}${MCP_PATH}`,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
