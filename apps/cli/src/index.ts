import { versionLine } from './version.js';

export type { CliIo } from './cli-io.js';

/**
 * Runs `partner-apis` as the process: its arguments, stdio and environment, with the process's
 * exit code set. `@partner-apis/mcp` runs `partner-apis mcp` through it.
 *
 * @example
 * await runMain(process.argv.slice(2));
 */
export async function runMain(args: readonly string[]): Promise<void> {
  // `--version` alone reads one file: a script that checks it pays for nothing else.
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${versionLine()}\n`);
    return;
  }
  const { endInterruptedOutput, removePendingOutputFiles } =
    await import('./output/output-sink.js');
  const { clearProgress } = await import('./output/progress.js');
  const { runCli } = await import('./program.js');
  // A closed pipe (`partner-apis … | head`) ends the run quietly, as other command-line tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  // However the process ends (`… | head -1` closing the pipe, Ctrl+C), a progress line still on
  // screen is erased, so the shell's prompt is not glued onto it.
  process.on('exit', clearProgress);
  // Ctrl+C (or a kill) while `--out` is written leaves no partial file, and `-o json` on stdout
  // still ends its array; the shell sees the signal's usual exit code.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      removePendingOutputFiles();
      endInterruptedOutput();
      process.exit(code);
    });
  }
  process.exitCode = await runCli(args, {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  });
}
