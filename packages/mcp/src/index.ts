import { runMain } from '@partner-apis/cli';

/**
 * Runs the MCP server as the process, over stdio (or Streamable HTTP with `--http`): `args`
 * are those of `partner-apis mcp` (`--tools`, `--allow-tools`, `--allow-writes`,
 * `--max-result-bytes`, `--env`, `--profile`, …); `--version` and `--help` print and end.
 *
 * @example
 * await serveMcp(process.argv.slice(2));
 */
export function serveMcp(args: readonly string[]): Promise<void> {
  const shown = args.find((arg) => ['-V', '--version', 'version'].includes(arg));
  return runMain(shown === undefined ? ['mcp', ...args] : ['--version']);
}
