import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Section } from './report.js';
import { fixed, times, type Scenario } from './scenario.js';
import { median } from './stats.js';

/** The built command line, `partner-apis`, beside the entry its package exports. */
const BIN = fileURLToPath(new URL('./bin.js', import.meta.resolve('@partner-apis/cli')));

/** Milliseconds of wall time of one run of `node args…`, in a folder with no config file. */
function wallMs(args: readonly string[], cwd: string): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, XDG_CONFIG_HOME: cwd },
    stdio: 'ignore',
  });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}`);
  return performance.now() - started;
}

async function run({ quick }: { quick: boolean }): Promise<Section> {
  const rounds = quick ? 5 : 25;
  const cwd = mkdtempSync(join(tmpdir(), 'bench-cli-start-'));
  const commands: Record<string, readonly string[]> = {
    'node -e 0': ['-e', '0'],
    'partner-apis --version': [BIN, '--version'],
    'partner-apis --help': [BIN, '--help'],
  };
  const samples: Record<string, number[]> = {};
  try {
    // Interleaved, so a burst of load on the machine weighs on all three alike.
    for (let round = 0; round < rounds; round += 1) {
      for (const [name, args] of Object.entries(commands)) {
        (samples[name] ??= []).push(wallMs(args, cwd));
      }
    }
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
  const baseline = median(samples['node -e 0']!);
  const ratio = (name: string) => median(samples[name]!) / baseline;
  return {
    id: 'B6',
    title: 'Command line start',
    method: `${rounds} runs of each command, interleaved, in a folder with no configuration; the median wall time of each beside that of a bare \`node -e 0\`.`,
    tables: [
      {
        columns: ['command', 'median ms', '× node -e 0'],
        rows: Object.keys(commands).map((name) => [
          name,
          fixed(median(samples[name]!), 1),
          times(ratio(name)),
        ]),
      },
    ],
    goals: ['partner-apis --version', 'partner-apis --help'].map((name) => ({
      name: `B6 \`${name}\` start`,
      target: '≤ 2.00× node -e 0',
      measured: times(ratio(name)),
      met: ratio(name) <= 2,
    })),
    notes: [],
  };
}

export const b6CliStart: Scenario = { id: 'B6', run };
