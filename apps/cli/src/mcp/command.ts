import type { Readable, Writable } from 'node:stream';
import { Option, type Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { operationServices } from '../commands/operations.js';
import { integerOption } from '../commands/option-parsers.js';
import { examples } from '../help-format.js';
import { UsageError } from '../usage-error.js';
import { createToolRunner } from './call-tool.js';
import { serveHttp, serveStdio } from './server.js';
import { mcpTools } from './tools.js';

/** The port of `--http` given without one. */
const DEFAULT_PORT = '7070';

interface McpOptions {
  http?: number;
  allowWrites?: boolean;
  allowTools?: string[];
}

/**
 * `partner-apis mcp`: a Model Context Protocol server over stdio (or Streamable HTTP on
 * 127.0.0.1 with `--http`) with one tool per operation of the four services, run on the
 * settings, credentials and sandbox of every other command.
 *
 * @example
 * registerMcpCommand(program, context);
 */
export function registerMcpCommand(program: Command, context: CommandContext): void {
  program
    .command('mcp')
    .description('serve the operations of the four services as MCP tools, over stdio or HTTP')
    .addOption(
      new Option('--http [port]', 'serve Streamable HTTP on 127.0.0.1 instead of stdio')
        .preset(DEFAULT_PORT)
        .argParser(integerOption(0, 65535)),
    )
    .option('--allow-writes', 'allow every tool that changes data (reads only by default)')
    .option(
      '--allow-tools <names>',
      'allow these tools that change data, comma-separated, e.g. liability_sellers_create',
      (value: string) =>
        value
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== ''),
    )
    .addHelpText(
      'after',
      examples(
        [
          'partner-apis mcp',
          'partner-apis mcp --allow-tools liability_sellers_create,liability_quotes_create',
          'partner-apis mcp --http 7070 --env uat',
        ],
        [
          'Every tool that changes data is refused unless --allow-writes or --allow-tools names it.',
          'A listing returns at most maxItems records (100 by default) and a nextCursor for the next ones.',
        ],
      ),
    )
    .action(async (options: McpOptions, command: Command) => {
      const tools = mcpTools(operationServices(context));
      const names = tools.map((tool) => tool.name);
      const unknown = (options.allowTools ?? []).filter((name) => !names.includes(name));
      if (unknown.length > 0) {
        throw new UsageError(
          `--allow-tools: no tool ${unknown.join(', ')} (the tools: ${names.join(', ')})`,
        );
      }
      await context.run(command, async (session) => {
        const call = createToolRunner(tools, session, {
          allowWrites: options.allowWrites === true,
          allowTools: options.allowTools ?? [],
        });
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
