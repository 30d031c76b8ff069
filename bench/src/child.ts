/**
 * Entry of every benchmark child process: `node child.js <task> <json input>`. Clients and
 * servers run in their own processes so each one's CPU time and heap are its own.
 */
import type { ServiceTask, Task } from './processes.js';

const tasks: Record<string, () => Promise<Task | ServiceTask>> = {
  'b1-server': () => import('./b1-server.js'),
  'b1-client': () => import('./b1-client.js'),
  'b2-server': () => import('./b2-server.js'),
  'b2-client': () => import('./b2-client.js'),
  'b3-client': () => import('./b3-client.js'),
  'b4-import': () => import('./b4-import.js'),
  's1-client': () => import('./s1-client.js'),
  'sandbox-host': () => import('./sandbox-host.js'),
};

type Message = { type: 'call'; id: number; method: string; args: unknown[] } | { type: 'close' };

function send(message: unknown): Promise<void> {
  // Started by hand (e.g. under --cpu-prof) there is no IPC channel: print the message instead.
  if (process.send === undefined) {
    console.log(JSON.stringify(message));
    return Promise.resolve();
  }
  return new Promise((resolve) => process.send?.(message, undefined, undefined, () => resolve()));
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

async function main(): Promise<void> {
  const [name = '', inputJson = 'null'] = process.argv.slice(2);
  const load = tasks[name];
  if (load === undefined) throw new Error(`unknown benchmark task ${name}`);
  const task = await load();
  const input: unknown = JSON.parse(inputJson);

  if ('run' in task) {
    const result = await task.run(input);
    await send({ type: 'result', result });
    process.exit(0);
  }

  const service = await task.serve(input);
  process.on('message', (message: Message) => {
    if (message.type === 'close') {
      void service.close().finally(() => process.exit(0));
      return;
    }
    service
      .call(message.method, message.args)
      .then(
        (result) => send({ type: 'reply', id: message.id, result }),
        (error: unknown) => send({ type: 'reply', id: message.id, error: describeError(error) }),
      )
      .catch(() => undefined);
  });
  // The parent going away ends the service too, so no server outlives a run.
  process.on('disconnect', () => process.exit(0));
  await send({ type: 'ready', info: service.info });
}

main().catch(async (error: unknown) => {
  await send({ type: 'error', error: describeError(error) });
  process.exit(1);
});
