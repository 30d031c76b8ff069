import { EventEmitter } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { openapiDocument } from './generated/liability.document.js';
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

/** The liability spec as a new upstream major `major` might be (same paths, its own version). */
function liabilityMajor(major: number): object {
  const document = structuredClone(openapiDocument) as { info: { version: string } };
  document.info.version = `${major}.0.0`;
  return document;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sandbox-cli-'));
  await writeFile(join(dir, 'liability-v2.yaml'), stringify(liabilityMajor(2)));
  await writeFile(join(dir, 'liability-v3.json'), JSON.stringify(liabilityMajor(3)));
  await writeFile(join(dir, 'liability-v1.json'), JSON.stringify(openapiDocument));
  await writeFile(join(dir, 'broken.yaml'), 'openapi: 3.1.0\ninfo: [1\npaths: {}\n');
  await writeFile(join(dir, 'not-openapi.yaml'), 'just: text\n');
  await writeFile(
    join(dir, 'no-operation-id.yaml'),
    "openapi: 3.1.0\ninfo: { title: t, version: 4.0.0 }\npaths:\n  /sellers:\n    get:\n      responses: { '200': { description: ok } }\n",
  );
  await writeFile(
    join(dir, 'unbundled.yaml'),
    stringify({
      openapi: '3.1.0',
      info: { title: 'Liability', version: '2.0.0' },
      paths: {
        '/quotes': { get: { parameters: [{ $ref: '../common/openapi.yaml#/components/x' }] } },
      },
    }),
  );
});

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

  it('serves each --liability-spec as a further major, YAML or JSON, and lists every major', async () => {
    const { io, out, signals } = fakeIo();
    const exit = runCli(
      [
        '--port',
        '0',
        '--liability-spec',
        join(dir, 'liability-v2.yaml'),
        '--liability-spec',
        join(dir, 'liability-v3.json'),
      ],
      io,
    );
    await until(() => out.some((line) => line.startsWith('Press Ctrl+C')));
    const origin = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out.join('\n'))?.[1];
    expect(out.filter((line) => line.startsWith('  liability'))).toEqual([
      `  liability v1      ${origin}/liability/v1/sandbox`,
      `  liability v2      ${origin}/liability/v2/sandbox`,
      `  liability v3      ${origin}/liability/v3/sandbox`,
    ]);
    const response = await fetch(`${origin}/liability/v3/sandbox/quotes/QTE-2026-0000404`);
    expect(response.status).toBe(401);
    const stats = (await (await fetch(`${origin}/__sandbox/stats`)).json()) as {
      routes: Record<string, { requests: number }>;
    };
    expect(stats.routes['liability.v3.getQuote']?.requests).toBe(1);
    signals.emit('SIGINT');
    expect(await exit).toBe(0);
  });

  it.each([
    ['missing.yaml', 'there is no such file'],
    ['.', 'is a directory, not a file'],
    ['broken.yaml', 'is neither YAML nor JSON: '],
    [
      'unbundled.yaml',
      'its $ref "../common/openapi.yaml#/components/x" points into another file; bundle it into one document first',
    ],
    ['not-openapi.yaml', ': must be an OpenAPI document with paths and info.version'],
    ['no-operation-id.yaml', ': GET /sellers has no operationId'],
    ['liability-v1.json', ': the liability API v1 is served already'],
  ])('--liability-spec %s: exits with 2 and one line naming the file', async (name, message) => {
    const { io, out, err } = fakeIo();
    const file = join(dir, name);
    expect(await runCli(['--port', '0', '--liability-spec', file], io)).toBe(2);
    expect(out).toEqual([]);
    expect(err).toHaveLength(2);
    expect(err[0]).toContain(`--liability-spec ${file}`);
    expect(err[0]).toContain(message);
    expect(err[0]).not.toContain('\n');
  });
});
