// A real redis-server (Debian's `redis-server` package) on a random 127.0.0.1 port, for tests.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** True when `redis-server` can be started here. */
const redisServerInstalled =
  spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * Whether the tests that need Redis run: always in CI (where a missing redis-server then fails
 * them, since `.ci/run` installs it), elsewhere only when it is installed.
 */
export const runRedisTests = redisServerInstalled || process.env.CI === 'true';

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:PORT`, with the password when there is one. */
  readonly url: string;
  /** Kills the server at once (SIGKILL): its data is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open, nothing is answered. */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

function launch(port: number, password: string | undefined): Promise<ChildProcess> {
  if (!redisServerInstalled) {
    throw new Error(
      'redis-server is not installed: `apt-get install redis-server` (Debian) or see packages/redis/README.md',
    );
  }
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  if (password !== undefined) args.push('--requirepass', password);
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start:\n${output}`));
    }, 10_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${String(code)}):\n${output}`));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts redis-server with no persistence on a free 127.0.0.1 port. */
export async function startRedisServer(options: { password?: string } = {}): Promise<RedisServer> {
  const port = await freePort();
  let child = await launch(port, options.password);
  const auth = options.password === undefined ? '' : `:${options.password}@`;
  return {
    port,
    url: `redis://${auth}127.0.0.1:${port}`,
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async restart() {
      child = await launch(port, options.password);
    },
    freeze: () => child.kill('SIGSTOP'),
    thaw: () => child.kill('SIGCONT'),
    async stop() {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited(child);
    },
  };
}
