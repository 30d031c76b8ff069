import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { runCli, type CliIo } from './run-cli.js';

function fakeIo() {
  const signals = new EventEmitter();
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    onSignal: (signal, listener) => signals.once(signal, listener),
  };
  return { io, out, err, signals };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

describe('partner-apis-sandbox', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'prints URLs and credentials, serves, and stops cleanly on %s',
    async (signal) => {
      const { io, out, signals } = fakeIo();
      const exit = runCli(['--port', '0', '--approvals-tier', 'silver'], io);
      await until(() => out.some((line) => line.startsWith('Press Ctrl+C')));
      const text = out.join('\n');
      const origin = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
      expect(origin).toBeDefined();
      expect(text).toContain(`${origin}/auth/login/connect/token`);
      expect(text).toContain(`${origin}/approvals/v1`);
      const credentials = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as {
        approvals: { clientId: string; clientSecret: string; tier: string };
      };
      expect(credentials.approvals.tier).toBe('silver');

      const response = await fetch(`${origin}/approvals/v1/approvals?employeeNumber=1`, {
        headers: {
          client_id: credentials.approvals.clientId,
          client_secret: credentials.approvals.clientSecret,
          'x-z-request-id': 'cli-1',
        },
      });
      expect(response.status).toBe(200);

      signals.emit(signal);
      expect(await exit).toBe(0);
      expect(out.at(-1)).toBe('Sandbox stopped.');
      await expect(fetch(`${origin}/approvals/v1/approvals`)).rejects.toThrow();
    },
  );

  it('prints its usage for --help', async () => {
    const { io, out } = fakeIo();
    expect(await runCli(['--help'], io)).toBe(0);
    expect(out.join('\n')).toContain('Usage: partner-apis-sandbox');
  });

  it.each([
    [['--port', 'abc'], '--port must be a whole number'],
    [['--gradings=-3'], '--gradings must be a whole number'],
    [['--approvals-tier', 'platinum'], 'credentials.approvals.tier must be bronze, silver or gold'],
    [['--nope'], "Unknown option '--nope'"],
  ])('exits with 2 and names the problem for %j', async (argv, message) => {
    const { io, err } = fakeIo();
    expect(await runCli(argv, io)).toBe(2);
    expect(err[0]).toContain(message);
  });
});
