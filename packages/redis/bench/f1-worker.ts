// One process of bench F1: calls approvals (or asks exposure for one page) for a while, through
// a fleet or alone, and sends what happened to the parent.
import { createApprovalsClient } from '@partner-apis/approvals';
import { createExposureClient } from '@partner-apis/exposure';
import { createRedisFleet, type RedisFleet } from '@partner-apis/redis';

export interface WorkerTask {
  kind: 'approvals' | 'exposure';
  /** Without it, the process paces itself alone, as before fleet mode. */
  redisUrl: string | undefined;
  keyPrefix: string;
  baseUrl: string;
  tokenUrl: string;
  credentials: object;
  employee: string;
  /** How long to keep calling, when `calls` is not given. */
  durationMs: number;
  /** How many calls the process makes in all, whatever they take; overrides `durationMs`. */
  calls?: number | undefined;
  concurrency: number;
}

export interface WorkerReport {
  ok: number;
  /** Answers that carry the record asked for (the employee's approvals, or one location). */
  records: number;
  failed: number;
  failures: Record<string, number>;
  lastEndedAt: number;
  degraded: number;
  restored: number;
}

async function main(task: WorkerTask): Promise<WorkerReport> {
  const report: WorkerReport = {
    ok: 0,
    records: 0,
    failed: 0,
    failures: {},
    lastEndedAt: 0,
    degraded: 0,
    restored: 0,
  };
  let fleet: RedisFleet | undefined;
  if (task.redisUrl !== undefined) {
    fleet = createRedisFleet({
      url: task.redisUrl,
      keyPrefix: task.keyPrefix,
      events: {
        onFleetDegraded: () => (report.degraded += 1),
        onFleetRestored: () => (report.restored += 1),
      },
    });
  }
  const call =
    task.kind === 'approvals'
      ? (() => {
          const client = createApprovalsClient({
            baseUrl: task.baseUrl,
            credentials: task.credentials as never,
            tier: 'silver',
            fleet,
          });
          return async () =>
            (await client.approvals.list(task.employee)).employeeNumber === task.employee;
        })()
      : (() => {
          const client = createExposureClient({
            baseUrl: task.baseUrl,
            tokenUrl: task.tokenUrl,
            credentials: task.credentials as never,
            fleet,
          });
          return async () => (await client.locations.page({ limit: 1 })).length === 1;
        })();
  // Every process is started and ready before the parent names the common start.
  const startAt = await new Promise<number>((resolve) => {
    process.once('message', (message: { startAt: number }) => resolve(message.startAt));
    process.send?.('ready');
  });
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
  const stopAt = task.calls === undefined ? startAt + task.durationMs : Number.POSITIVE_INFINITY;
  let left = task.calls ?? Number.POSITIVE_INFINITY;
  async function lane(): Promise<void> {
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

const task = JSON.parse(process.argv[2] ?? '{}') as WorkerTask;
main(task).then(
  (report) => process.send?.(report, () => process.disconnect()),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exitCode = 1;
    process.disconnect();
  },
);
