/**
 * `pnpm bench`: runs every scenario against servers it starts on 127.0.0.1, prints the report
 * and, for a full run, writes it to results/latest.md.
 *
 *   node dist/main.js            full run, writes results/latest.md
 *   node dist/main.js --quick    short run for trying things out, prints only
 *   node dist/main.js --only=B1,B4
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { b1Overhead } from './b1-overhead.js';
import { b2Paging } from './b2-paging.js';
import { b3SingleFlight } from './b3-single-flight.js';
import { b4Size } from './b4-size.js';
import { b5Sync } from './b5-sync.js';
import { b6CliStart } from './b6-cli-start.js';
import { killChildren } from './processes.js';
import { renderReport, type Section } from './report.js';
import { s1Soak } from './s1-soak.js';
import type { Scenario } from './scenario.js';

const SCENARIOS: Scenario[] = [
  b1Overhead,
  b2Paging,
  b3SingleFlight,
  b4Size,
  b5Sync,
  b6CliStart,
  s1Soak,
];
// A full run takes about ten minutes on two idle cores; stop at half as long again, whatever
// hangs.
const DEADLINE_MS = 900_000;

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const only = args
    .find((arg) => arg.startsWith('--only='))
    ?.slice('--only='.length)
    .toUpperCase()
    .split(',');
  const chosen = SCENARIOS.filter((scenario) => only === undefined || only.includes(scenario.id));

  const started = performance.now();
  const loadBefore = loadavg()[0] ?? Number.NaN;
  const sections: Section[] = [];
  const render = () =>
    renderReport(
      {
        date: new Date().toISOString().slice(0, 10),
        commit: commit(),
        node: process.versions.node,
        cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
        cores: cpus().length,
        durationSeconds: (performance.now() - started) / 1000,
        load: [loadBefore, loadavg()[0] ?? Number.NaN],
      },
      sections,
    );

  // Prints what was measured so far, so a run stopped by the deadline still shows it; a stopped
  // run never replaces results/latest.md.
  const deadline = setTimeout(() => {
    killChildren();
    console.log(render());
    console.error(`pnpm bench: stopped after ${DEADLINE_MS / 1000} s, the report above is partial`);
    process.exit(1);
  }, DEADLINE_MS);
  deadline.unref();

  for (const scenario of chosen) {
    const scenarioStart = performance.now();
    console.error(`${scenario.id} …`);
    try {
      sections.push(await scenario.run({ quick }));
    } catch (error) {
      sections.push({
        id: scenario.id,
        title: 'failed',
        method: 'The scenario stopped with an error.',
        tables: [],
        goals: [],
        notes: [error instanceof Error ? error.message : String(error)],
      });
    }
    console.error(
      `${scenario.id} done in ${((performance.now() - scenarioStart) / 1000).toFixed(1)} s`,
    );
  }

  const report = render();
  console.log(report);
  if (!quick && only === undefined) {
    writeFileSync(new URL('../results/latest.md', import.meta.url), report);
    console.error('written to bench/results/latest.md');
  }
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(killChildren);
