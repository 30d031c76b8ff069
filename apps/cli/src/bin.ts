#!/usr/bin/env node
import { removePendingOutputFiles } from './output/output-sink.js';
import { runCli } from './program.js';

// A closed pipe (`partner-apis … | head`) ends the run quietly, as other command-line tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

// Ctrl+C (or a kill) while `--out` is written leaves no partial file; the shell sees the signal's
// usual exit code.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    removePendingOutputFiles();
    process.exit(code);
  });
}

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
