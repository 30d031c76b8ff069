// One process of a fleet run (bench F1 and the fault tests): calls approvals (or asks exposure
// for one page) through a fleet or alone, from the start its parent names, and reports what
// happened. Plain JavaScript, so that node runs it as it is, from the tests too.
import { createApprovalsClient } from '@partner-apis/approvals';
import { createExposureClient } from '@partner-apis/exposure';
import { createRedisFleet } from '@partner-apis/redis';

/** @param {import('../src/fleet-run.fixture.ts').WorkerTask} task */
async function main(task) {
  /** @type {import('../src/fleet-run.fixture.ts').WorkerReport} */
  const report = {
    ok: 0,
    records: 0,
    failed: 0,
    failures: {},
    lastEndedAt: 0,
    degraded: 0,
    restored: 0,
  };
  const fleet =
    task.redisUrl === undefined
      ? undefined
      : createRedisFleet({
          url: task.redisUrl,
          keyPrefix: task.keyPrefix,
          windowMarginMs: task.windowMarginMs,
          events: {
            onFleetDegraded: () => (report.degraded += 1),
            onFleetRestored: () => (report.restored += 1),
          },
        });
  let call;
  if (task.kind === 'approvals') {
    const client = createApprovalsClient({
      baseUrl: task.baseUrl,
      credentials: task.credentials,
      tier: 'silver',
      fleet,
    });
    call = async () =>
      (await client.approvals.list(task.employee)).employeeNumber === task.employee;
  } else {
    const client = createExposureClient({
      baseUrl: task.baseUrl,
      tokenUrl: task.tokenUrl,
      credentials: task.credentials,
      fleet,
    });
    call = async () => (await client.locations.page({ limit: 1 })).length === 1;
  }
  // Every process is started and ready before the parent names the common start.
  const startAt = await new Promise((resolve) => {
    process.once('message', (message) => resolve(message.startAt));
    process.send?.('ready');
  });
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
  const stopAt = task.calls === undefined ? startAt + task.durationMs : Number.POSITIVE_INFINITY;
  let left = task.calls ?? Number.POSITIVE_INFINITY;
  async function lane() {
    // A timed lane makes at least one call; a counted one stops when the process's calls are made.
    for (let first = true; left > 0 && (first || Date.now() < stopAt); first = false) {
      left -= 1;
      try {
        const complete = await call();
        report.ok += 1;
        if (complete) report.records += 1;
      } catch (error) {
        report.failed += 1;
        const name = error instanceof Error ? error.name : 'unknown';
        report.failures[name] = (report.failures[name] ?? 0) + 1;
      }
      report.lastEndedAt = Date.now();
    }
  }
  await Promise.all(Array.from({ length: task.concurrency }, lane));
  await fleet?.close();
  return report;
}

main(JSON.parse(process.argv[2] ?? '{}')).then(
  (report) => process.send?.(report, () => process.disconnect()),
  (error) => {
    process.stderr.write(`${String(error)}\n`);
    process.exitCode = 1;
    process.disconnect();
  },
);
