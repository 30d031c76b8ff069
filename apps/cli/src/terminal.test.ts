import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import {
  HAS_OPENSSL,
  refusedUrl,
  startConnectProxy,
  startSelfSignedServer,
  type ConnectProxy,
} from '@partner-apis/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, createSeller, runBuiltCli, type Run } from './cli.fixture.js';
import { sandboxVariables } from './config/sandbox-variables.js';

// The command line as a person meets it in a terminal (issue 24's list), each defect once.
let sb: Sandbox;
let dir: string;
let sandboxEnv: Record<string, string>;

/** A fresh clone's shell: nothing configured, HOME in a folder of its own. */
function bareEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: dir, NODE_ENV: 'test' };
}

function run(args: string[], env: Record<string, string> = {}, cwd = dir): Promise<Run> {
  return runBuiltCli(args, { ...bareEnv(), ...env }, cwd);
}

function shell(command: string, env: Record<string, string> = {}, cwd = dir): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      'sh',
      ['-c', command],
      { env: { ...bareEnv(), ...env }, cwd, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr });
      },
    );
  });
}

const cli = `"${process.execPath}" "${BIN}"`;
const requests = (route: string) => sb.stats().routes[route]?.requests ?? 0;
const widest = (text: string) => Math.max(0, ...text.split('\n').map((line) => line.length));

/**
 * Runs `command` with a pseudo-terminal as its terminal (util-linux `script`), `columns` wide;
 * `interruptOn` is text after which Ctrl+C is typed. Resolves with everything the terminal got.
 */
async function inTerminal(
  command: string,
  columns: number,
  interruptOn?: string,
): Promise<{ code: number | null; screen: string }> {
  const child = spawn(
    'script',
    ['-qefc', `stty cols ${columns} rows 20; ${command}`, '/dev/null'],
    {
      env: { ...bareEnv(), ...sandboxEnv, TERM: 'xterm' },
      cwd: dir,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  let screen = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    const before = screen;
    screen += text;
    if (
      interruptOn !== undefined &&
      !before.includes(interruptOn) &&
      screen.includes(interruptOn)
    ) {
      child.stdin.write('\x03');
    }
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, screen };
}

/** The examples of a help text, each as one command line. */
function examplesOf(help: string): string[] {
  const section = help.split('\nExamples:\n')[1]?.split('\n\n')[0] ?? '';
  return section
    .replace(/ \\\n\s+/g, ' ')
    .split('\n')
    .map((line) => line.replace(/^\s*\$ /, ''));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'partner-apis-terminal-'));
  sb = await startSandbox({ sizes: { exposureLocations: 1234, riskLocations: 50, gradings: 50 } });
  sandboxEnv = sandboxVariables(sb);
});
afterAll(() => sb?.close());

describe('1. the examples of --help', () => {
  test('every example of `partner-apis --help` works on a fresh clone', async () => {
    const help = await run(['--help']);
    const lines = examplesOf(help.stdout);
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const cwd = await mkdtemp(join(dir, 'fresh-'));
    for (const line of lines) {
      const result = await shell(line.replace(/^partner-apis/, cli), {}, cwd);
      expect({ line, code: result.code, stderr: result.stderr }).toMatchObject({ code: 0 });
    }
  });

  test("a server's hint names the command to type, not the HTTP operation", async () => {
    const result = await run([
      'liability',
      'quotes',
      'create',
      '--seller',
      'SEL-999999',
      '--country-of-sales',
      'EU-ASIA',
      '--territory',
      'NON-US',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('`partner-apis liability sellers create`');
    expect(result.stderr).not.toContain('POST /parties/sellers');
    expect(result.stderr).toContain('`partner-apis sandbox start` keeps sellers and quotes');
  });
});

describe('2. tables fit the width', () => {
  test('`COLUMNS=80 partner-apis demo` prints nothing wider than 80 columns', async () => {
    const result = await run(['demo'], { COLUMNS: '80' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('4. Approvals');
    expect(widest(result.stdout)).toBeLessThanOrEqual(80);
    expect(widest(result.stderr)).toBeLessThanOrEqual(80);
  });

  test('the approvals table fits 80 columns: one line per approval', async () => {
    const { code, screen } = await inTerminal(
      `${cli} approvals approvals list --employee-number 100234`,
      80,
    );
    expect(code).toBe(0);
    const text = screen.replace(/\r/g, '');
    expect(widest(text)).toBeLessThanOrEqual(80);
    expect(text).toMatch(/^\S+\s+\w+\s+\d+\s+pending\b/m);
  });

  test('piped to head, a table is tab-separated columns, no wider than its values', async () => {
    const result = await shell(
      `${cli} exposure locations --columns locationId,address.city | head -3`,
      sandboxEnv,
    );
    expect(result.stdout.split('\n').slice(0, 3)).toEqual([
      expect.stringMatching(/^LOC-0000001\t\S/),
      expect.stringMatching(/^LOC-0000002\t\S/),
      expect.stringMatching(/^LOC-0000003\t\S/),
    ]);
  });
});

describe('3. ids are never cut nor left out', () => {
  test('quote search at 60 columns: every quoteId whole, lists of records as a count, no JSON', async () => {
    const seller = JSON.parse((await run(createSeller(), sandboxEnv)).stdout) as {
      sellerId: string;
    };
    const args = [
      ...['liability', 'quotes', 'create', '--seller', seller.sellerId],
      ...['--country-of-sales', 'US-CA-UK-IL-CL-AU', '--territory', 'US'],
    ];
    const create = `${cli} ${args.join(' ')}`;
    const referred = await inTerminal(create, 60);
    expect(referred.code).toBe(0);
    const record = referred.screen.replace(/\r/g, '');
    expect(widest(record)).toBeLessThanOrEqual(60);
    // A single record wraps its long values instead of cutting them, and shows no JSON.
    expect(record).not.toContain('…');
    expect(record).not.toMatch(/[{}"]/);
    expect(record).toMatch(/^referrals\s+1 item/m);
    const ids = await run([...args, '-o', 'json'], sandboxEnv);
    const { quoteId } = JSON.parse(ids.stdout) as { quoteId: string };
    const search = await inTerminal(
      `${cli} liability quotes search --seller-id ${seller.sellerId}`,
      60,
    );
    expect(search.code).toBe(0);
    const table = search.screen.replace(/\r/g, '');
    expect(widest(table)).toBeLessThanOrEqual(60);
    // The notes come first on the screen (stderr); the ids lead the table's header.
    expect(table).toMatch(/^productId\s+quoteId\s/m);
    expect(table).toContain(quoteId);
    expect(table).not.toMatch(/[{}"]/);
    expect(table.replace(/\s+/g, ' ')).toMatch(/shown as a count; -o json shows every field/);
  });
});

describe.runIf(existsSync('/usr/bin/script') || existsSync('/bin/script'))(
  '4. progress in a real terminal',
  () => {
    test('`… | head -1`: no progress line for the pipe reader to write over', async () => {
      const { screen } = await inTerminal(
        `${cli} exposure locations -o ndjson --page-size 10 | head -1`,
        60,
      );
      expect(screen).toContain('"locationId"');
      expect(screen).not.toContain('records/s');
    });

    test('to a file: the line fits 60 columns and is erased at the end', async () => {
      const { code, screen } = await inTerminal(
        `${cli} exposure locations --out progress.ndjson --page-size 10`,
        60,
      );
      expect(code).toBe(0);
      const drawn = screen.split('\r\x1b[2K').filter((part) => part.includes('records'));
      expect(drawn.length).toBeGreaterThan(0);
      // Room is left for the `^C` a terminal echoes.
      for (const line of drawn) expect(line.length).toBeLessThanOrEqual(57);
      expect(screen.endsWith('\r\x1b[2K')).toBe(true);
    });

    test('Ctrl+C erases the line; exit code 130', async () => {
      sb.fault('exposure.listLocations', { latencyMs: 100 });
      try {
        const { code, screen } = await inTerminal(
          `${cli} exposure locations --out interrupted.ndjson --page-size 10 --prefetch 1`,
          60,
          'records/s',
        );
        expect(code).toBe(130);
        const afterLine = screen.slice(screen.lastIndexOf('records/s'));
        expect(afterLine).toContain('\r\x1b[2K');
      } finally {
        sb.clearFaults();
      }
    });
  },
);

describe('5. -o is the format', () => {
  test('`-o json` prints JSON and writes no file named json; --out stays the file', async () => {
    const cwd = await mkdtemp(join(dir, 'output-'));
    const printed = await run(['exposure', 'locations', '-o', 'json'], sandboxEnv, cwd);
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toHaveLength(1234);
    const written = await run(
      ['riskengineering', 'gradings', '-o', 'csv', '--out', 'g.csv'],
      sandboxEnv,
      cwd,
    );
    expect(written).toMatchObject({ code: 0, stdout: '' });
    expect(await readdir(cwd)).toEqual(['g.csv']);
    expect((await readFile(join(cwd, 'g.csv'), 'utf8')).split('\n')[0]).toMatch(/^gradingId,/);
    const older = await run(['riskengineering', 'gradings', '--format', 'ndjson'], sandboxEnv, cwd);
    expect(older.stdout.split('\n')).toHaveLength(51);
    const both = await run(
      ['exposure', 'locations', '-o', 'json', '--format', 'csv'],
      sandboxEnv,
      cwd,
    );
    expect(both).toMatchObject({ code: 2, stdout: '' });
    expect(both.stderr).toContain('--format csv and --output json disagree');
  });
});

describe('6. no Node warning lines', () => {
  test("a secret about to expire is the CLI's own warning, with advice a person can follow", async () => {
    const created = new Date(Date.now() - 340 * 86_400_000).toISOString().slice(0, 10);
    const result = await run(
      ['approvals', 'approvals', 'list', '--employee-number', '100234', '-o', 'ndjson'],
      {
        ...sandboxEnv,
        PARTNER_APIS_APPROVALS_SECRET_CREATED_AT: created,
      },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('(node:');
    expect(result.stderr).not.toContain('assumptions');
    expect(result.stderr).toMatch(/^warning: the approvals client: The client secret expires on /m);
    expect(result.stderr.replace(/\s+/g, ' ')).toContain(
      'Then update PARTNER_APIS_APPROVALS_CLIENT_SECRET and PARTNER_APIS_APPROVALS_SECRET_CREATED_AT; `partner-apis credentials check` shows the date of every secret.',
    );
    const quiet = await run(
      ['--quiet', 'approvals', 'approvals', 'list', '--employee-number', '100234', '-o', 'ndjson'],
      {
        ...sandboxEnv,
        PARTNER_APIS_APPROVALS_SECRET_CREATED_AT: created,
      },
    );
    expect(quiet).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('7. values checked against the spec before any request', () => {
  test('--created-from 2026-03-01 (a day for a date-time) is a usage error; nothing is sent', async () => {
    const before = requests('liability.searchQuotes');
    const result = await run(
      ['liability', 'quotes', 'search', '--created-from', '2026-03-01'],
      sandboxEnv,
    );
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      'error: --created-from must be an RFC 3339 date-time such as 2026-03-01T00:00:00Z (got "2026-03-01")\n',
    );
    expect(requests('liability.searchQuotes')).toBe(before);
  });
});

describe('8. proxies and TLS', () => {
  let proxy: ConnectProxy;

  beforeAll(async () => {
    proxy = await startConnectProxy();
  });
  afterAll(() => proxy?.close());

  test('HTTP_PROXY carries the requests; NO_PROXY exempts a host', async () => {
    const proxyUrl = proxy.url;
    const through = await run(
      ['approvals', 'approvals', 'list', '--employee-number', '100234', '-o', 'json'],
      {
        ...sandboxEnv,
        HTTP_PROXY: proxyUrl,
      },
    );
    expect(through.code).toBe(0);
    expect(proxy.tunnels).toContain(new URL(sb.urls.approvals).host);
    const tunnelled = proxy.tunnels.length;
    const around = await run(
      ['approvals', 'approvals', 'list', '--employee-number', '100234', '-o', 'json'],
      {
        ...sandboxEnv,
        http_proxy: proxyUrl,
        NO_PROXY: '127.0.0.1',
      },
    );
    expect(around.code).toBe(0);
    expect(proxy.tunnels.slice(tunnelled)).toEqual([]);
  });

  test('a proxy that refuses the connection is named as the proxy', async () => {
    const dead = await refusedUrl();
    const result = await run(['approvals', 'approvals', 'list', '--employee-number', '100234'], {
      ...sandboxEnv,
      HTTP_PROXY: dead,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `: the proxy 127.0.0.1:${new URL(dead).port}: connection refused (ECONNREFUSED)`,
    );
  });

  test.runIf(HAS_OPENSSL)(
    'a self-signed certificate is explained, not an internal error',
    async () => {
      const server = await startSelfSignedServer();
      try {
        const result = await run(
          ['approvals', 'approvals', 'list', '--employee-number', '100234'],
          {
            ...sandboxEnv,
            PARTNER_APIS_APPROVALS_BASE_URL: server.url,
          },
        );
        expect(result.code).toBe(1);
        expect(result.stderr).toContain("the server's TLS certificate is not trusted");
        expect(result.stderr).toContain('(DEPTH_ZERO_SELF_SIGNED_CERT)');
        expect(result.stderr).toContain('NODE_EXTRA_CA_CERTS');
        expect(result.stderr).not.toContain('internal error');
      } finally {
        server.close();
      }
    },
  );
});

describe('9. configuration', () => {
  test("a subfolder finds the project's partner-apis.config.json above it", async () => {
    const project = await mkdtemp(join(dir, 'project-'));
    await writeFile(
      join(project, 'partner-apis.config.json'),
      JSON.stringify({
        defaultEnvironment: 'uat',
        environments: {
          uat: {
            approvals: {
              baseUrl: sb.urls.approvals,
              clientId: sb.credentials.approvals.clientId,
              clientSecret: sb.credentials.approvals.clientSecret,
            },
          },
        },
      }),
    );
    const deep = join(project, 'reports', '2026');
    await mkdir(deep, { recursive: true });
    const before = requests('approvals.getApprovals');
    const result = await run(
      ['approvals', 'approvals', 'list', '--employee-number', '100234', '-o', 'json'],
      {},
      deep,
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(requests('approvals.getApprovals')).toBe(before + 1);
  });

  test('a setting missing from a profile is named as that setting of that profile', async () => {
    const xdg = await mkdtemp(join(dir, 'xdg-'));
    await mkdir(join(xdg, 'partner-apis'));
    const file = join(xdg, 'partner-apis', 'config.json');
    await writeFile(
      file,
      JSON.stringify({
        profiles: { acme: { approvals: { baseUrl: sb.urls.approvals, clientId: 'acme' } } },
      }),
    );
    const result = await run(
      ['--profile', 'acme', 'approvals', 'approvals', 'list', '--employee-number', '100234'],
      {
        XDG_CONFIG_HOME: xdg,
      },
    );
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `configuration error: ${file}: profiles.acme.approvals.clientSecret: is missing from profile acme (or set PARTNER_APIS_APPROVALS_CLIENT_SECRET)\n`,
    });
    await writeFile(
      file,
      JSON.stringify({ profiles: { acme: { approvals: { baseUrl: sb.urls.approvals } } } }),
    );
    const both = await run(
      ['--profile', 'acme', 'approvals', 'approvals', 'list', '--employee-number', '100234'],
      { XDG_CONFIG_HOME: xdg },
    );
    expect(both.stderr).toBe(
      `configuration error: ${file}: profiles.acme.approvals.clientId and profiles.acme.approvals.clientSecret: are missing from profile acme (or set PARTNER_APIS_APPROVALS_CLIENT_ID and PARTNER_APIS_APPROVALS_CLIENT_SECRET)\n`,
    );
  });

  test('config list: each setting in effect and where it came from, secrets masked', async () => {
    const result = await run(['config', 'list', '-o', 'json'], sandboxEnv);
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout) as { setting: string; value: string; source: string }[];
    expect(rows).toContainEqual({
      setting: 'approvals.baseUrl',
      value: sb.urls.approvals,
      source: 'PARTNER_APIS_APPROVALS_BASE_URL',
    });
    const secret = rows.find((row) => row.setting === 'exposure.clientSecret');
    expect(secret?.source).toBe('PARTNER_APIS_EXPOSURE_CLIENT_SECRET');
    expect(secret?.value).toMatch(/^\*+.{0,4}$/);
    expect(result.stdout).not.toContain(sb.credentials.exposure.clientSecret);
    expect(result.stdout).not.toContain(sb.credentials.exposure.subscriptionKeys.primary);
  });
});

describe('11. errors, config and sync', () => {
  test('sandbox status at 60 columns: its sentence broken at spaces, no word cut', async () => {
    const { code, screen } = await inTerminal(`${cli} sandbox status`, 60);
    expect(code).toBe(1);
    const text = screen.replace(/\r/g, '');
    expect(widest(text)).toBeLessThanOrEqual(60);
    expect(text).toContain('`partner-apis sandbox start`');
  });

  test('config list at 60 columns: no line wider, each value under its setting', async () => {
    const { code, screen } = await inTerminal(`${cli} config list`, 60);
    expect(code).toBe(0);
    const text = screen.replace(/\r/g, '');
    expect(widest(text)).toBeLessThanOrEqual(60);
    expect(text).toMatch(/^riskEngineering\.subscriptionKeySecondary\n {2}\*+/m);
  });

  test('an error is red on a terminal; NO_COLOR keeps it plain; a pipe never gets colour', async () => {
    const command = `${cli} liability quotes get QTE-1999-0000404`;
    const red = await inTerminal(command, 80);
    expect(red.code).toBe(1);
    expect(red.screen).toContain('\x1b[31merror:\x1b[39m 404 not_found');
    const plain = await inTerminal(`NO_COLOR=1 ${command}`, 80);
    expect(plain.screen).toMatch(/^error: 404 not_found/m);
    expect(plain.screen).not.toContain('\x1b[31m');
    const piped = await run(['liability', 'quotes', 'get', 'QTE-1999-0000404'], sandboxEnv);
    expect(piped.stderr).toMatch(/^error: 404 not_found/);
  });

  test('sync --state into a folder it cannot write: nothing on stdout, exit code 2', async () => {
    const before = requests('exposure.listLocations');
    const result = await shell(
      `${cli} exposure locations sync --state missing/locations.state.json >> synced.ndjson`,
      sandboxEnv,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: cannot write --state missing/locations.state.json: its folder does not exist\n',
    );
    expect(await readFile(join(dir, 'synced.ndjson'), 'utf8')).toBe('');
    expect(requests('exposure.listLocations')).toBe(before);
  });
});

describe('10. help', () => {
  test('no arguments: the help on stdout, exit code 0', async () => {
    const result = await run([]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^Usage: partner-apis /);
    const group = await run(['liability']);
    expect(group).toMatchObject({ code: 0, stderr: '' });
    expect(group.stdout).toMatch(/^Usage: partner-apis liability /);
  });

  test('`help exposure locations` is the help of exposure locations', async () => {
    const [viaHelp, viaFlag] = await Promise.all([
      run(['help', 'exposure', 'locations']),
      run(['exposure', 'locations', '--help']),
    ]);
    expect(viaHelp).toEqual({ ...viaFlag, code: 0 });
    expect(viaHelp.stdout).toMatch(/^Usage: partner-apis exposure locations /);
    expect(await run(['help', 'exposure', 'bogus'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: unknown command 'bogus' (see partner-apis --help)\n",
    });
  });

  test('required options are marked; global options are shown under a subcommand', async () => {
    const result = await run(['approvals', 'approvals', 'list', '--help']);
    expect(result.stdout).toMatch(/--employee-number <value>\s+The employee[^(]*\(required\)/);
    expect(result.stdout).not.toMatch(/--tier <tier>[^-]*\(required\)/);
    expect(result.stdout).toContain('\nGlobal Options:\n');
    for (const flag of ['--env <name>', '--profile <name>', '--debug', '--quiet']) {
      expect(result.stdout).toContain(flag);
    }
  });

  test("a group's help lists its commands before the global options", async () => {
    for (const group of [['liability'], ['exposure'], ['liability', 'quotes']]) {
      const help = (await run([...group, '--help'])).stdout;
      const commands = help.indexOf('\nCommands:\n');
      expect(commands, group.join(' ')).toBeGreaterThan(0);
      expect(help.indexOf('\nGlobal Options:\n')).toBeGreaterThan(commands);
      expect(help).not.toContain('\n\n\n');
    }
  });

  test('at 60 columns no line is wider, and no option shows its default twice', async () => {
    const commands = [
      [],
      ['exposure', 'locations'],
      ['liability', 'quotes', 'create'],
      ['liability', 'quotes', 'search'],
      ['sandbox', 'start'],
      ['config', 'list'],
    ];
    for (const command of commands) {
      const result = await run([...command, '--help'], { COLUMNS: '60' });
      expect(result.code).toBe(0);
      expect(widest(result.stdout), command.join(' ')).toBeLessThanOrEqual(60);
      const options = result.stdout.split(/\n(?=\s{2}-)/);
      for (const option of options) expect(option.match(/default:/g)?.length ?? 0).toBeLessThan(2);
    }
    const start = await run(['sandbox', 'start', '--help']);
    expect(start.stdout).toMatch(/--port <n>\s+port on 127\.0\.0\.1 \(default: a free one\)/);
  });
});
