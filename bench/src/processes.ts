import { fork, type ChildProcess } from 'node:child_process';

/** A child task that computes one result and exits. */
export interface Task {
  run(input: unknown): Promise<unknown>;
}

/** A child task that keeps serving until closed (a server under test). */
export interface ServiceTask {
  serve(input: unknown): Promise<RunningService>;
}

/** The child side of a running service. */
export interface RunningService {
  info: unknown;
  call(method: string, args: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

/** The parent side of a running service. */
export interface ServiceHandle<Info> {
  info: Info;
  call<T>(method: string, ...args: unknown[]): Promise<T>;
  stop(): Promise<void>;
}

interface ChildOptions {
  /** Node flags of the child, e.g. `--expose-gc`. */
  execArgv?: string[];
  /** The child is killed and the call rejects after this long. */
  timeoutMs: number;
}

type ChildMessage =
  | { type: 'result'; result: unknown }
  | { type: 'ready'; info: unknown }
  | { type: 'reply'; id: number; result?: unknown; error?: string }
  | { type: 'error'; error: string };

const entry = new URL('./child.js', import.meta.url);
const running = new Set<ChildProcess>();

function spawnChild(task: string, input: unknown, execArgv: string[]): ChildProcess {
  const child = fork(entry, [task, JSON.stringify(input)], {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/**
 * Runs a task in a fresh child process and resolves to its result.
 *
 * @example
 * const result = await runTask<ClientResult>('b1-client', { kind: 'fetch' }, { timeoutMs: 10_000 });
 */
export function runTask<Result>(
  task: string,
  input: unknown,
  options: ChildOptions,
): Promise<Result> {
  const child = spawnChild(task, input, options.execArgv ?? []);
  return new Promise<Result>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${task} did not finish within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'result') resolve(message.result as Result);
      if (message.type === 'error') reject(new Error(`${task}: ${message.error}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${task} exited with code ${String(code)} before answering`));
    });
  });
}

/**
 * Starts a service task (a server) in a child process and resolves once it is ready.
 *
 * @example
 * const server = await startService<{ port: number }>('b1-server', {}, { timeoutMs: 10_000 });
 * await server.stop();
 */
export function startService<Info>(
  task: string,
  input: unknown,
  options: ChildOptions,
): Promise<ServiceHandle<Info>> {
  const child = spawnChild(task, input, options.execArgv ?? []);
  let nextId = 0;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  child.on('message', (message: ChildMessage) => {
    if (message.type !== 'reply') return;
    const call = pending.get(message.id);
    pending.delete(message.id);
    if (message.error !== undefined) call?.reject(new Error(message.error));
    else call?.resolve(message.result);
  });
  void exited.then(() => {
    for (const call of pending.values()) call.reject(new Error(`${task} exited`));
    pending.clear();
  });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${task} did not start within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${task} exited before it was ready`));
    });
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'error') reject(new Error(`${task}: ${message.error}`));
      if (message.type !== 'ready') return;
      clearTimeout(timer);
      resolve({
        info: message.info as Info,
        call<T>(method: string, ...args: unknown[]) {
          const id = nextId++;
          child.send({ type: 'call', id, method, args });
          return new Promise<T>((resolveCall, rejectCall) =>
            pending.set(id, {
              resolve: resolveCall as (value: unknown) => void,
              reject: rejectCall,
            }),
          );
        },
        async stop() {
          if (child.exitCode === null) child.send({ type: 'close' });
          const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          await exited;
          clearTimeout(killer);
        },
      });
    });
  });
}

/** Kills every child still running; called when the run ends, however it ends. */
export function killChildren(): void {
  for (const child of running) child.kill('SIGKILL');
}
