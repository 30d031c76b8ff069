import type { Readable, Writable } from 'node:stream';
import { Option, type Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { operationServices } from '../commands/operations.js';
import { integerOption } from '../commands/option-parsers.js';
import { examples } from '../help-format.js';
import { UsageError } from '../usage-error.js';
import { createToolRunner } from './call-tool.js';
import { serveHttp, serveStdio } from './server.js';
import { DEFAULT_RESULT_BYTES, mcpTools, type McpTool } from './tools.js';

/** The port of `--http` given without one. */
const DEFAULT_PORT = '7070';

interface McpOptions {
  http?: number;
  allowWrites?: boolean;
  allowTools?: string[];
  tools?: string[];
  maxResultBytes: number;
}

function names(value: string): string[] {
  return value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/**
 * The tools a server lists and runs: those of `--tools` (every one without it), less the
 * writes that neither `--allow-writes` nor `--allow-tools` allows. A name of no tool is a
 * usage error.
 */
function listedTools(all: readonly McpTool[], options: McpOptions): McpTool[] {
  const known = all.map((tool) => tool.name);
  for (const [flag, given] of [
    ['--tools', options.tools],
    ['--allow-tools', options.allowTools],
  ] as const) {
    const unknown = (given ?? []).filter((name) => !known.includes(name));
    if (unknown.length > 0) {
      throw new UsageError(
        `${flag}: no tool ${unknown.join(', ')} (the tools: ${known.join(', ')})`,
      );
    }
  }
  return all.filter(
    (tool) =>
      (options.tools === undefined || options.tools.includes(tool.name)) &&
      (tool.operation.write !== true ||
        options.allowWrites === true ||
        (options.allowTools ?? []).includes(tool.name)),
  );
}

/**
 * `partner-apis mcp`: a Model Context Protocol server over stdio (or Streamable HTTP on
 * 127.0.0.1 with `--http`) with one tool per operation of the services, run on the
 * settings, credentials and sandbox of every other command.
 */
export function registerMcpCommand(program: Command, context: CommandContext): void {
  program
    .command('mcp')
    .description('serve the operations of the services as MCP tools, over stdio or HTTP')
    .addOption(
      new Option('--http [port]', 'serve Streamable HTTP on 127.0.0.1 instead of stdio')
        .preset(DEFAULT_PORT)
        .argParser(integerOption(0, 65535)),
    )
    .option('--tools <names>', 'list only these tools, comma-separated', names)
    .option('--allow-writes', 'list and run every tool that changes data (reads only by default)')
    .option(
      '--allow-tools <names>',
      'list and run these tools that change data, comma-separated, e.g. liability_sellers_create',
      names,
    )
    .addOption(
      new Option('--max-result-bytes <n>', 'the most bytes of JSON one tool result holds')
        .argParser(integerOption(1024, 10_000_000))
        .default(DEFAULT_RESULT_BYTES),
    )
    .addHelpText(
      'after',
      examples(
        [
          'partner-apis mcp',
          'partner-apis mcp --tools exposure_locations_list,approvals_approvals_list',
          'partner-apis mcp --allow-tools liability_sellers_create,liability_quotes_create',
          'partner-apis mcp --http 7070 --env uat',
        ],
        [
          'Tools that change data are not listed unless --allow-writes or --allow-tools names them.',
          'A listing returns at most maxItems records (100 by default), fewer when they would pass --max-result-bytes, and a nextCursor for the next ones; a read takes a JMESPath query, as --query.',
        ],
      ),
    )
    .action(async (options: McpOptions, command: Command) => {
      const tools = listedTools(mcpTools(await operationServices(context)), options);
      await context.run(command, async (session) => {
        const call = createToolRunner(tools, session, { maxResultBytes: options.maxResultBytes });
        if (options.http === undefined) {
          const stdin = (context.io.stdin ?? process.stdin) as Readable;
          await serveStdio(tools, call, stdin, context.io.stdout as Writable);
          return;
        }
        const { url } = await serveHttp(tools, call, options.http);
        context.note(`MCP server (Streamable HTTP) at ${url}; stop it with Ctrl+C.`);
        // Served until the process is stopped: the signal ends it, and the sandbox with it.
        await new Promise<never>(() => {});
      });
    });
}
