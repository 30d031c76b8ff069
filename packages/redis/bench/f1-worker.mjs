// One process of fleet runs (bench F1 and the fault tests), one run after another: calls
// approvals (or asks exposure for one page) through a fleet or alone, from the start its parent
// names, and reports what happened, with the moment each request was written to its socket.
// Plain JavaScript, so that node runs it as it is, from the tests too.
import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createApprovalsClient } from '@partner-apis/approvals';
import { createExposureClient } from '@partner-apis/exposure';
import { createRedisFleet } from '@partner-apis/redis';

/**
 * An agent whose connections note when each request is handed to the socket: the moment a
 * server that never falls behind would count it (a server on a busy machine reads its requests
 * late, by more than any margin).
 */
class WriteClockAgent extends Agent {
  /** @param {number[]} written */
  constructor(written) {
    super({ keepAlive: true, timeout: 4000 });
    this.written = written;
  }

  createConnection(options, callback) {
    const socket = super.createConnection(options, callback);
    const write = socket.write;
    const written = this.written;
    socket.write = function (chunk, ...rest) {
      // node:http writes a request's head in one piece; what follows on the socket is body.
      if (typeof chunk === 'string' && /^[A-Z]+ \//.test(chunk)) {
        written.push(performance.timeOrigin + performance.now());
      }
      return write.call(this, chunk, ...rest);
    };
    return socket;
  }
}

/** @param {import('../src/fleet-run.fixture.ts').WorkerTask} task */
async function run(task) {
  /** @type {import('../src/fleet-run.fixture.ts').WorkerReport} */
  const report = {
    ok: 0,
    records: 0,
    failed: 0,
    failures: {},
    degraded: 0,
    restored: 0,
    written: [],
    warnings: 0,
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
  const agent = new WriteClockAgent(report.written);
  const logger = { warn: () => (report.warnings += 1) };
  const approvals = (tier) =>
    createApprovalsClient({
      baseUrl: task.baseUrl,
      credentials: task.credentials,
      tier,
      fleet,
      agent,
      logger,
    });
  /** One call of the run; says whether its answer carried the record asked for. */
  let call;
  const approvalsCall = (client) => async () =>
    (await client.approvals.list(task.employee)).employeeNumber === task.employee;
  // With `goldFirst`, the client ID's tier was taken for gold: one call at that pace, then a
  // client that declares the tier it has, silver, and the calls of the run.
  const first = task.goldFirst === true ? approvalsCall(approvals('gold')) : undefined;
  if (task.kind === 'approvals' && first === undefined) call = approvalsCall(approvals('silver'));
  if (task.kind === 'exposure') {
    const client = createExposureClient({
      baseUrl: task.baseUrl,
      tokenUrl: task.tokenUrl,
      credentials: task.credentials,
      fleet,
    });
    call = async () => (await client.locations.page({ limit: 1 })).length === 1;
  }
  // Every process is ready before the parent names the common start.
  const { startAt } = await nextMessage('ready');
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
  if (first !== undefined) {
    if (await first()) report.records += 1;
    report.ok += 1;
    call = approvalsCall(approvals('silver'));
  }
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
    }
  }
  await Promise.all(Array.from({ length: task.concurrency }, lane));
  await fleet?.close();
  agent.destroy();
  return report;
}

/** The parent's next message, listened for before `said` is sent, so that none is missed. */
function nextMessage(said) {
  const message = new Promise((resolve) => process.once('message', resolve));
  process.send?.(said);
  return message;
}

process.once('disconnect', () => process.exit());
for (let said = 'idle'; ;) {
  const { task } = await nextMessage(said);
  said = await run(task);
}
