import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { BIN, createSeller, runBuiltCli, type Run } from './cli.fixture.js';
import { sandboxVariables } from './config/sandbox-variables.js';

// These tests run the built CLI as a user does: `node dist/bin.js …` in a child process.
const SIZES = { exposureLocations: 1234, riskLocations: 321, gradings: 210 };
const NOTICE =
  /^No credentials configured: using the embedded sandbox at http:\/\/127\.0\.0\.1:\d+ /;

let sb: Sandbox;
let dir: string;
let sandboxEnv: Record<string, string>;

/** A clean environment: nothing of the developer's shell leaks into the CLI under test. */
function baseEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: dir, NODE_ENV: 'test' };
}

function run(args: string[], env: Record<string, string> = sandboxEnv, cwd = dir): Promise<Run> {
  return runBuiltCli(args, { ...baseEnv(), ...env }, cwd);
}

function shell(command: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      'sh',
      ['-c', command],
      { env: { ...baseEnv(), ...env }, cwd: dir, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr });
      },
    );
  });
}

function ndjson(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const requests = (route: string) => sb.stats().routes[route]?.requests ?? 0;

beforeAll(async () => {
  if (!existsSync(BIN)) {
    throw new Error(
      `${BIN} is missing: build the CLI first (pnpm exec turbo run build --filter=@partner-apis/cli)`,
    );
  }
  dir = await mkdtemp(join(tmpdir(), 'partner-apis-cli-'));
  sb = await startSandbox({ sizes: SIZES, seed: 11 });
  sandboxEnv = sandboxVariables(sb);
});
afterAll(() => sb?.close());
afterEach(() => sb.clearFaults());

describe('help', () => {
  const commands = [
    [],
    ['exposure'],
    ['exposure', 'locations'],
    ['exposure', 'statement-of-values'],
    ['exposure', 'statement-of-values', 'validate'],
    ['exposure', 'statement-of-values', 'submit'],
    ['riskengineering'],
    ['riskengineering', 'gradings'],
    ['riskengineering', 'locations'],
    ['liability'],
    ['liability', 'sellers'],
    ['liability', 'sellers', 'create'],
    ['liability', 'quotes'],
    ['liability', 'quotes', 'create'],
    ['liability', 'quotes', 'get'],
    ['liability', 'quotes', 'search'],
    ['approvals'],
    ['approvals', 'approvals'],
    ['approvals', 'approvals', 'list'],
    ['credentials'],
    ['credentials', 'check'],
    ['config'],
    ['config', 'list'],
    ['demo'],
    ['sandbox'],
    ['sandbox', 'start'],
    ['sandbox', 'status'],
    ['sandbox', 'stop'],
    ['completion'],
    ['version'],
  ];

  test('every command has --help with one Examples heading, an example of itself among them, on stdout, exit code 0', async () => {
    const runs: Run[] = [];
    // A few at a time: enough to be quick, few enough for a loaded machine.
    for (let start = 0; start < commands.length; start += 4) {
      const batch = commands.slice(start, start + 4);
      runs.push(...(await Promise.all(batch.map((command) => run([...command, '--help'])))));
    }
    runs.forEach((result, index) => {
      const command = commands[index]!;
      expect(result.code, command.join(' ')).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(
        new RegExp(`^Usage: partner-apis${command.map((c) => ` ${c}`).join('')}`),
      );
      expect(result.stdout.split('\nExamples:\n'), command.join(' ')).toHaveLength(2);
      expect(result.stdout, command.join(' ')).toContain(
        `  $ ${['partner-apis', ...command].join(' ')}`,
      );
    });
    expect(runs[0]!.stdout).toContain(
      'Exit codes:\n  0 ok, 1 API error or invalid data, 2 usage or configuration error.',
    );
    // One process per command: on a busy machine that is far longer than one call.
  }, 180_000);
});

describe('like gh, aws and az', () => {
  test('--version prints the version; exit code 0', async () => {
    const result = await run(['--version']);
    expect(result).toEqual({
      code: 0,
      stdout: expect.stringMatching(
        /^partner-apis \d+\.\d+\.\d+ \(node v\d+\.\d+\.\d+, \w+-\w+\)\n$/,
      ),
      stderr: '',
    });
    // `version` as a command too, as gh and az have it: not a suggestion of `verify`.
    expect(await run(['version'])).toEqual(result);
  });

  test('config set writes the profile or environment, checked; config get prints one value', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'partner-apis-set-'));
    const env = { HOME: cwd };
    const url = 'https://liability.example.com/v1/uat';
    // Before anything is configured for uat: set does not need the settings it writes.
    const set = await run(['--env', 'uat', 'config', 'set', 'liability.baseUrl', url], env, cwd);
    expect(set).toMatchObject({ code: 0, stdout: '' });
    await run(['--env', 'uat', 'config', 'set', 'liability.major', '1'], env, cwd);
    expect(JSON.parse(await readFile(join(cwd, 'partner-apis.config.json'), 'utf8'))).toEqual({
      environments: { uat: { liability: { baseUrl: url, major: 1 } } },
    });
    const got = await run(['--env', 'uat', 'config', 'get', 'liability.baseUrl'], env, cwd);
    expect(got).toEqual({ code: 0, stdout: `${url}\n`, stderr: '' });
    const unset = await run(['--env', 'uat', 'config', 'get', 'approvals.tier'], env, cwd);
    expect(unset.code).toBe(1);
    expect(unset.stderr).toMatch(/^error: approvals\.tier is not set/);
    const unknown = await run(['--env', 'uat', 'config', 'set', 'liability.bogus', 'x'], env, cwd);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('environments.uat.liability.bogus is not a known setting');
    const secret = await run(
      ['--env', 'uat', 'config', 'set', 'liability.clientSecret', 'top-secret-value'],
      env,
      cwd,
    );
    expect(secret.code).toBe(2);
    expect(secret.stderr).not.toContain('top-secret-value');
    // What a command would refuse is refused now, under the setting's own name; nothing written.
    for (const [setting, value, problem] of [
      ['exposure.baseUrl', 'not-a-url', 'must be an absolute https URL (got not-a-url)'],
      ['approvals.tier', 'platinum', 'must be bronze, silver, gold or a number'],
    ]) {
      const refused = await run(['--env', 'uat', 'config', 'set', setting!, value!], env, cwd);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        `partner-apis.config.json: environments.uat.${setting}: ${problem}`,
      );
    }
    expect(await readFile(join(cwd, 'partner-apis.config.json'), 'utf8')).not.toMatch(
      /platinum|not-a-url/,
    );
    const nowhere = await run(['config', 'set', 'liability.baseUrl', url], env, cwd);
    expect(nowhere.code).toBe(2);
    const profile = await run(
      ['--profile', 'acme', 'config', 'set', 'approvals.clientSecret', 'top-secret-value'],
      env,
      cwd,
    );
    expect(profile.code).toBe(0);
    const userFile = join(cwd, '.config', 'partner-apis', 'config.json');
    expect((await stat(userFile)).mode & 0o777).toBe(0o600);
    const masked = await run(
      ['--profile', 'acme', 'config', 'get', 'approvals.clientSecret'],
      env,
      cwd,
    );
    expect(masked.stdout).toBe('************alue\n');
  });

  test.runIf(existsSync('/bin/bash') || existsSync('/usr/bin/bash'))(
    'completion bash: Tab completes commands, options and choices through the CLI itself',
    async () => {
      const script = await run(['completion', 'bash']);
      expect(script.code).toBe(0);
      await writeFile(join(dir, 'completion.bash'), script.stdout);
      const complete = (line: string) =>
        shell(
          `bash -c 'partner-apis() { "${process.execPath}" "${BIN}" "$@"; }
            source ./completion.bash
            COMP_WORDS=(${line}); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
            _partner_apis; printf "%s\\n" "\${COMPREPLY[@]}"'`,
          {},
        );
      expect((await complete('partner-apis exposure lo')).stdout).toBe('locations\n');
      expect((await complete('partner-apis liability quotes create --territory ""')).stdout).toBe(
        'US\nNON-US\n',
      );
    },
  );

  test.each(['zsh', 'fish'])('completion %s: a script that asks the CLI', async (name) => {
    const script = await run(['completion', name]);
    expect(script.code).toBe(0);
    expect(script.stdout).toContain('partner-apis __complete');
  });

  test('an unknown shell is a usage error', async () => {
    const result = await run(['completion', 'powershell']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "error: command-argument value 'powershell' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.",
    );
  });

  test('--debug: every request and response on stderr, credentials redacted; stdout stays data', async () => {
    const result = await run([
      '--debug',
      'exposure',
      'locations',
      '--format',
      'ndjson',
      '--page-size',
      '1000',
    ]);
    expect(result.code).toBe(0);
    expect(ndjson(result.stdout)).toHaveLength(SIZES.exposureLocations);
    expect(result.stderr).toMatch(
      /^debug: → GET http:\/\/127\.0\.0\.1:\d+\/portal\/open\/portal-api\/exposure\/locations\?\S+ \(attempt 1\)$/m,
    );
    expect(result.stderr).toMatch(
      /^debug: ← 200 GET http:\/\/127\.0\.0\.1:\d+\/portal\/\S+ \(\d+ ms\)$/m,
    );
    expect(result.stderr).toMatch(/^debug: info: access token obtained/m);
    expect(result.stderr).toContain('"authorization":"[redacted]"');
    expect(result.stderr).toContain('"ocp-apim-subscription-key":"[redacted]"');
    for (const secret of [
      sb.credentials.exposure.clientSecret,
      sb.credentials.exposure.subscriptionKeys.primary,
      sb.credentials.exposure.subscriptionKeys.secondary,
    ]) {
      expect(result.stderr).not.toContain(secret);
    }
    expect(result.stderr).not.toMatch(/Bearer [^\s"[]/);
  });

  test('--debug with liability and approvals: Basic credentials and client_secret stay redacted', async () => {
    const [liability, approvals] = await Promise.all([
      run(['--debug', 'liability', 'quotes', 'search']),
      run(['--debug', 'approvals', 'approvals', 'list', '--employee-number', '100234']),
    ]);
    expect(liability.code).toBe(0);
    expect(approvals.code).toBe(0);
    const log = liability.stderr + approvals.stderr;
    expect(log).toMatch(/^debug: → GET /m);
    expect(log).not.toContain(sb.credentials.liability.clientSecret);
    expect(log).not.toContain(sb.credentials.approvals.clientSecret);
    expect(log).not.toContain(
      Buffer.from(`${sb.credentials.liability.clientId}:`).toString('base64').slice(0, 12),
    );
  });
});

describe('exposure locations', () => {
  test('ndjson: one record per line, every location once, nothing else on stdout or stderr', async () => {
    const result = await run(['exposure', 'locations', '--format', 'ndjson', '--page-size', '500']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const records = ndjson(result.stdout);
    expect(records).toHaveLength(SIZES.exposureLocations);
    expect(new Set(records.map((record) => record.locationId)).size).toBe(SIZES.exposureLocations);
    expect(records[0]).toMatchObject({ locationId: 'LOC-0000001' });
  });

  test('`exposure locations --format ndjson | wc -l` equals the sandbox location count', async () => {
    const result = await shell(
      `"${process.execPath}" "${BIN}" exposure locations --format ndjson | wc -l`,
      sandboxEnv,
    );
    expect(result.code).toBe(0);
    expect(Number(result.stdout.trim())).toBe(sb.fixtures.sizes.exposureLocations);
  });

  test('--modified-since keeps the records modified since that day', async () => {
    const result = await run([
      'exposure',
      'locations',
      '--format',
      'json',
      '--modified-since',
      '2025-01-01',
    ]);
    expect(result.code).toBe(0);
    const records = JSON.parse(result.stdout) as { modifiedDate: string }[];
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBeLessThan(SIZES.exposureLocations);
    expect(records.every((record) => record.modifiedDate >= '2025-01-01')).toBe(true);
  });

  test('csv to --out: a header and a row per location, stdout empty', async () => {
    const out = join(dir, 'locations.csv');
    const result = await run(['exposure', 'locations', '--format', 'csv', '--out', out]);
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    const lines = (await readFile(out, 'utf8')).trim().split('\n');
    expect(lines[0]).toMatch(/^locationId,name,address\.street,address\.city,/);
    expect(lines).toHaveLength(SIZES.exposureLocations + 1);
  });

  test('Ctrl+C while --out is written leaves no file behind; exit code 130', async () => {
    const out = join(dir, 'interrupted', 'locations.csv');
    await mkdir(dirname(out));
    sb.fault('exposure.listLocations', { latencyMs: 200 });
    const child = spawn(
      process.execPath,
      [
        BIN,
        'exposure',
        'locations',
        '--format',
        'csv',
        '--out',
        out,
        '--page-size',
        '10',
        '--prefetch',
        '1',
      ],
      { env: { ...baseEnv(), ...sandboxEnv }, stdio: 'ignore' },
    );
    const exited = once(child, 'exit');
    // Bounded wait for the command to have written its first page.
    for (let tries = 0; tries < 600; tries += 1) {
      const files = await readdir(dirname(out));
      const partial = files.find((name) => name.endsWith('.partial'));
      if (partial !== undefined && (await stat(join(dirname(out), partial))).size > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGINT');
    const [code] = await exited;
    expect(code).toBe(130);
    expect(await readdir(dirname(out))).toEqual([]);
  });

  test('a failure after the first pages leaves no --out file; exit code 1', async () => {
    const out = join(dir, 'failed.ndjson');
    sb.fault('exposure.listLocations', { every: { n: 2, action: 404 } });
    const result = await run([
      'exposure',
      'locations',
      '--format',
      'ndjson',
      '--out',
      out,
      '--page-size',
      '100',
      '--prefetch',
      '1',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: 404 /);
    expect((await readdir(dir)).filter((name) => name.includes('failed.ndjson'))).toEqual([]);
  });

  test('-o json on stdout still ends as a JSON array when a page fails, or on Ctrl+C', async () => {
    sb.fault('exposure.listLocations', { every: { n: 2, action: 404 } });
    const failed = await run([
      'exposure',
      'locations',
      '-o',
      'json',
      '--page-size',
      '100',
      '--prefetch',
      '1',
    ]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^error: 404 /);
    expect(JSON.parse(failed.stdout)).toHaveLength(100);
    sb.clearFaults();
    sb.fault('exposure.listLocations', { latencyMs: 200 });
    const child = spawn(
      process.execPath,
      [BIN, 'exposure', 'locations', '-o', 'json', '--page-size', '10', '--prefetch', '1'],
      { env: { ...baseEnv(), ...sandboxEnv }, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = once(child, 'exit');
    // Bounded wait for the first page on stdout.
    for (let tries = 0; tries < 600 && !stdout.includes('LOC-'); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGINT');
    expect((await exited)[0]).toBe(130);
    expect(JSON.parse(stdout).length).toBeGreaterThan(0);
  });

  test('a full disk is a clear error: --out /dev/full, --state /dev/full', async () => {
    const out = await run([
      'exposure',
      'locations',
      '--limit',
      '5',
      '-o',
      'csv',
      '--out',
      '/dev/full',
    ]);
    expect(out.code).toBe(1);
    expect(out.stderr).toBe('error: cannot write --out /dev/full: the disk is full\n');
    const state = await run(['exposure', 'locations', 'sync', '--state', '/dev/full']);
    expect(state.code).toBe(2);
    expect(state.stderr).toMatch(
      /^error: cannot keep --state in \/dev\/full: it is not a regular file/,
    );
  });

  test('--out x.json writes JSON; a name of no format says what it wrote', async () => {
    const json = await run(['exposure', 'locations', '--limit', '2', '--out', 'two.json']);
    expect(json).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(await readFile(join(dir, 'two.json'), 'utf8'))).toHaveLength(2);
    const text = await run(['exposure', 'locations', '--limit', '2', '--out', 'two.txt']);
    expect(text.stderr).toMatch(/^note: two\.txt has tab-separated columns; -o json/);
  });

  test('table with --columns', async () => {
    const result = await run([
      'exposure',
      'locations',
      '--columns',
      'locationId,address.city',
      '-o',
      'table',
    ]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^locationId\s+address\.city$/);
    expect(lines[2]).toMatch(/^LOC-0000001\s+\S/);
    expect(lines).toHaveLength(SIZES.exposureLocations + 2);
  });

  test('a table into a pipe is tab-separated columns with no header, as gh writes one', async () => {
    const result = await run(['exposure', 'locations', '--columns', 'locationId,address.city']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(SIZES.exposureLocations);
    expect(lines.every((line) => /^LOC-\d{7}\t[^\t]+$/.test(line))).toBe(true);
  });

  test('no records: --out gets an empty file, csv writes nothing; "No records." goes to stderr', async () => {
    const none = ['exposure', 'locations', '--modified-since', '2999-01-01'];
    const table = await run([...none, '--out', 'none.txt', '-o', 'table']);
    expect(table).toMatchObject({ code: 0, stdout: '' });
    expect(table.stderr).toContain('No records.\n');
    expect(await readFile(join(dir, 'none.txt'), 'utf8')).toBe('');
    const csv = await run([...none, '-o', 'csv']);
    expect(csv).toMatchObject({ code: 0, stdout: '' });
  });

  test('--limit and --max-items stop after N records and read no page past them', async () => {
    const route = 'exposure.listLocations';
    const before = sb.stats().routes[route]?.requests ?? 0;
    const result = await run(['exposure', 'locations', '--limit', '3', '-o', 'ndjson']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(3);
    expect((sb.stats().routes[route]?.requests ?? 0) - before).toBe(1);
    const other = await run(['exposure', 'locations', '--max-items', '2', '-o', 'ndjson']);
    expect(other.stdout.trim().split('\n')).toHaveLength(2);
    const both = await run(['exposure', 'locations', '--limit', '3', '--max-items', '2']);
    expect(both.code).toBe(2);
  });

  test('--query selects with JMESPath; a bad expression is a usage error before any request', async () => {
    const ids = await run(['exposure', 'locations', '--limit', '2', '--query', '[].locationId']);
    expect(ids).toMatchObject({ code: 0, stdout: 'LOC-0000001\nLOC-0000002\n' });
    const count = await run(['exposure', 'locations', '--query', 'length(@)', '-o', 'json']);
    expect(count.stdout).toBe(`${SIZES.exposureLocations}\n`);
    const bad = await run(['exposure', 'locations', '--query', '[.']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --query is not a JMESPath expression: /);
  });
});

describe('output a terminal can trust', () => {
  const hostileName = 'Lyon\x1b]0;owned\x07\x1b[2J\u009b31m';
  // The records, then empty pages for the pages asked ahead and the one confirming the end.
  const serve = (records: Record<string, unknown>[]) =>
    sb.fault('exposure.listLocations', {
      sequence: [
        { status: 200, body: records },
        ...Array.from({ length: 8 }, () => ({ status: 200, body: [] })),
      ],
    });

  test('table: escape sequences in records are shown, never sent to the terminal', async () => {
    serve([{ locationId: 'LOC-1', name: hostileName }]);
    const result = await run(['exposure', 'locations']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    // eslint-disable-next-line no-control-regex -- no control character may get through
    expect(result.stdout).not.toMatch(/[\x1b\x07\u009b]/);
    expect(result.stdout).toContain('Lyon\\x1b]0;owned\\x07\\x1b[2J\\x9b31m');
  });

  test('json keeps the same values as valid JSON, without a raw control character', async () => {
    serve([{ locationId: 'LOC-1', name: hostileName }]);
    const result = await run(['exposure', 'locations', '--format', 'json']);
    expect(result.code).toBe(0);
    // eslint-disable-next-line no-control-regex -- no control character may get through
    expect(result.stdout).not.toMatch(/[\x1b\x07\u009b]/);
    expect(JSON.parse(result.stdout)).toEqual([{ locationId: 'LOC-1', name: hostileName }]);
  });

  test('csv: a formula in a record is written as text', async () => {
    serve([{ locationId: 'LOC-1', name: '=HYPERLINK("http://evil.example","open")', floors: -2 }]);
    const result = await run(['exposure', 'locations', '--format', 'csv']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'locationId,name,floors\nLOC-1,"\'=HYPERLINK(""http://evil.example"",""open"")",-2\n',
    );
  });

  test('an error message from the server cannot drive the terminal either', async () => {
    sb.fault('exposure.listLocations', {
      sequence: [
        {
          status: 400,
          body: {
            code: 'data_validation',
            message: `bad \x1b]52;c;cm0gLXJmIH4=\x07 request`,
            correlationId: 'corr-1',
          },
        },
      ],
    });
    const result = await run(['exposure', 'locations']);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('\x1b');
    expect(result.stderr).toContain('bad \\x1b]52;c;cm0gLXJmIH4=\\x07 request');
  });

  test('an unknown --columns name is a usage error, and no data is written', async () => {
    const result = await run(['exposure', 'locations', '--columns', 'locationId,adress.city']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^error: --columns: no record has the column adress\.city; the columns are locationId, name, address\.street, /,
    );
  });

  test('the table fits the width of the terminal (COLUMNS); cut cells end with an ellipsis', async () => {
    const result = await run(['exposure', 'locations', '-o', 'table'], {
      ...sandboxEnv,
      COLUMNS: '60',
    });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(SIZES.exposureLocations + 2);
    expect(lines.every((line) => line.length <= 60)).toBe(true);
    expect(lines[0]).toMatch(/^locationId\s+name\s+address\.street/);
    expect(result.stdout).toContain('…');
    // The note is broken at spaces to fit the same 60 columns.
    expect(result.stderr.replace(/\s+/g, ' ')).toMatch(
      /^\d+ of \d+ columns do not fit the terminal and are left out \(.*\); choose them with --columns, or use -o csv or json $/,
    );
  });

  test('a table of 150,000 locations streams out whole', async () => {
    const big = await startSandbox({
      sizes: { exposureLocations: 150_000 },
      validateResponses: false,
    });
    try {
      const result = await run(
        ['exposure', 'locations', '--columns', 'locationId,address.city', '-o', 'table'],
        { ...sandboxVariables(big) },
      );
      expect(result).toMatchObject({ code: 0, stderr: '' });
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(150_002);
      expect(lines[150_001]).toMatch(/^LOC-0150000\s+\S/);
    } finally {
      await big.close();
    }
  }, 120_000);
});

describe('riskengineering', () => {
  test('gradings and locations, every record', async () => {
    const [gradings, locations] = await Promise.all([
      run(['riskengineering', 'gradings', '--format', 'ndjson', '--page-size', '100']),
      run(['riskengineering', 'locations', '--format', 'json']),
    ]);
    expect(gradings).toMatchObject({ code: 0, stderr: '' });
    expect(ndjson(gradings.stdout)).toHaveLength(SIZES.gradings);
    expect(ndjson(gradings.stdout)[0]).toMatchObject({ gradingId: 'GRD-0000001' });
    expect(locations).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(locations.stdout)).toHaveLength(SIZES.riskLocations);
  });
});

describe('exposure sov', () => {
  const header =
    'locationId,name,street,city,country,occupancy,construction,yearBuilt,buildings,contents';
  const goodRows = [
    'LOC-1,Rotterdam DC,Waalhaven 21,Rotterdam,NL,Warehouse,Non-combustible,1998,42000000,15500000',
    "LOC-2,Lyon plant,12 Rue de l'Industrie,Lyon,FR,Light assembly,Masonry,1975,8000000,",
    'LOC-3,Basel office,Aeschenplatz 6,Basel,CH,Office,Concrete,2004,12000000,3000000',
  ];

  test('validate: a good CSV has no problems and nothing is sent', async () => {
    const file = join(dir, 'good.csv');
    await writeFile(file, [header, ...goodRows].join('\n'));
    const before = requests('exposure.submitStatementOfValues');
    const result = await run([
      'exposure',
      'statement-of-values',
      'validate',
      file,
      '--currency',
      'EUR',
    ]);
    expect(result).toEqual({ code: 0, stdout: `${file}: 3 locations, no problems\n`, stderr: '' });
    expect(requests('exposure.submitStatementOfValues')).toBe(before);
  });

  test('validate: three invalid rows, each reported with its row and column; exit code 1', async () => {
    const file = join(dir, 'three-invalid.csv');
    await writeFile(
      file,
      [
        header,
        goodRows[0],
        "LOC-2,Lyon plant,12 Rue de l'Industrie,Lyon,France,Light assembly,Masonry,1975,8000000,",
        'LOC-3,,Aeschenplatz 6,Basel,CH,Office,Concrete,2004,12000000,3000000',
        'LOC-4,Porto depot,Rua do Ouro 1,Porto,PT,Warehouse,Steel,19x8,-5,',
      ].join('\n'),
    );
    const result = await run([
      'exposure',
      'statement-of-values',
      'validate',
      file,
      '--currency',
      'EUR',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trim().split('\n');
    expect(lines).toEqual([
      `${file}: row 3, column E (country): must match pattern "^[A-Z]{2}$"`,
      `${file}: row 4, column B (name): is required`,
      `${file}: row 5, column H (yearBuilt): must be integer`,
      `${file}: row 5, column I (buildings): must be >= 0`,
      `4 problems in ${file}; nothing was sent`,
    ]);
  });

  test('submit: a JSON portfolio is checked, then sent; the receipt is printed', async () => {
    const file = join(dir, 'portfolio.json');
    await writeFile(
      file,
      JSON.stringify({
        portfolioName: 'European warehouses 2026',
        currency: 'EUR',
        locations: [
          {
            locationId: 'LOC-0001842',
            name: 'Rotterdam distribution centre',
            address: { street: 'Waalhaven Zuidzijde 21', city: 'Rotterdam', country: 'NL' },
            occupancy: 'Warehouse',
            construction: 'Non-combustible',
            values: { buildings: 42000000 },
          },
        ],
      }),
    );
    const before = requests('exposure.submitStatementOfValues');
    const result = await run([
      'exposure',
      'statement-of-values',
      'submit',
      file,
      '--format',
      'json',
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toBeTypeOf('object');
    expect(requests('exposure.submitStatementOfValues')).toBe(before + 1);
  });

  test('submit: an invalid portfolio is not sent; problems go to stderr', async () => {
    const file = join(dir, 'no-currency.csv');
    await writeFile(file, [header, goodRows[0]].join('\n'));
    const before = requests('exposure.submitStatementOfValues');
    const result = await run(['exposure', 'statement-of-values', 'submit', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `${file}: currency (add a currency column or --currency): is required\n1 problem in ${file}; nothing was sent\n`,
    );
    expect(requests('exposure.submitStatementOfValues')).toBe(before);
  });

  test('validate: a spreadsheet export with semicolons and a byte order mark', async () => {
    const file = join(dir, 'excel-de.csv');
    await writeFile(
      file,
      '\uFEFF' + [header, ...goodRows].map((row) => row.replaceAll(',', ';')).join('\r\n'),
    );
    const result = await run([
      'exposure',
      'statement-of-values',
      'validate',
      file,
      '--currency',
      'EUR',
    ]);
    expect(result).toEqual({ code: 0, stdout: `${file}: 3 locations, no problems\n`, stderr: '' });
  });

  test('a quote that is never closed is bad data: exit code 1, the row named, nothing sent', async () => {
    const file = join(dir, 'unclosed.csv');
    await writeFile(
      file,
      [header, goodRows[0], 'LOC-2,"Lyon plant,x,Lyon,FR', goodRows[2]].join('\n'),
    );
    const before = requests('exposure.submitStatementOfValues');
    const result = await run([
      'exposure',
      'statement-of-values',
      'submit',
      file,
      '--currency',
      'EUR',
    ]);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${file}: row 3: a quoted field opens here and is never closed (a " is missing); nothing was sent\n`,
    });
    expect(requests('exposure.submitStatementOfValues')).toBe(before);
  });

  test('validate: escape sequences in a file are shown in its problems, never obeyed', async () => {
    const file = join(dir, 'escapes.csv');
    await writeFile(file, [`${header},\x1b]0;owned\x07`, `${goodRows[0]},x`].join('\n'));
    const result = await run([
      'exposure',
      'statement-of-values',
      'validate',
      file,
      '--currency',
      'EUR',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain('\x1b');
    expect(result.stdout).toContain('column K (\\x1b]0;owned\\x07): unknown column');
  });

  test('a file that does not exist is a usage error', async () => {
    const result = await run([
      'exposure',
      'statement-of-values',
      'validate',
      join(dir, 'missing.csv'),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: cannot read .*missing\.csv: it does not exist\n$/);
  });
});

describe('liability', () => {
  let sellerId: string;
  let quoteId: string;

  test('seller create prints the seller with its id', async () => {
    const result = await run(createSeller('--city', 'Hamburg', '--marketplace', 'Amazon'));
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const seller = JSON.parse(result.stdout) as { sellerId: string };
    expect(seller).toMatchObject({
      name: 'Nordlicht Home GmbH',
      address: { country: 'DE', city: 'Hamburg' },
    });
    sellerId = seller.sellerId;
    expect(sellerId).toMatch(/^SEL-/);
  });

  test('quote create: a price, or a referral when forced into manual review', async () => {
    const priced = await run([
      'liability',
      'quotes',
      'create',
      '--seller',
      sellerId,
      '--country-of-sales',
      'EU-ASIA',
      '--territory',
      'NON-US',
    ]);
    // Lists of records in a table are their count, never wrapped JSON.
    expect(priced).toMatchObject({
      code: 0,
      stderr: 'note: policyLines, insureds are lists shown as a count; -o json shows every field\n',
    });
    expect(priced.stdout).not.toContain('{');
    expect(priced.stdout).toMatch(/^policyLines\s+1 item$/m);
    expect(priced.stdout).toMatch(/^quoteId\s+QTE-\d{4}-\d+$/m);
    expect(priced.stdout).toMatch(/^status\s+quoted$/m);
    expect(priced.stdout).toMatch(/^price\.amount\s+\d+\.\d{2}$/m);
    quoteId = /^quoteId\s+(\S+)$/m.exec(priced.stdout)![1]!;

    const referred = await run([
      'liability',
      'quotes',
      'create',
      '--seller',
      sellerId,
      '--country-of-sales',
      'EU-ASIA',
      '--territory',
      'NON-US',
      '--force-manual-referral',
      '--format',
      'json',
    ]);
    expect(referred.code).toBe(0);
    expect(JSON.parse(referred.stdout)).toMatchObject({
      status: 'referred',
      referrals: [{ code: 'MANUAL_REFERRAL_REQUESTED' }],
    });
  });

  test('quotes get and quotes search', async () => {
    const got = await run(['liability', 'quotes', 'get', quoteId, '--format', 'json']);
    expect(got).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(got.stdout)).toMatchObject({ quoteId, status: 'quoted' });
    const found = await run([
      'liability',
      'quotes',
      'search',
      '--seller-id',
      sellerId,
      '--format',
      'ndjson',
    ]);
    expect(found).toMatchObject({ code: 0, stderr: '' });
    expect(ndjson(found.stdout).map((quote) => quote.insureds)).toEqual([
      [{ sellerId }],
      [{ sellerId }],
    ]);
  });

  test('--columns and --query of one record as of a listing', async () => {
    const nosuch = await run(['liability', 'quotes', 'get', quoteId, '--columns', 'nosuch']);
    expect(nosuch.code).toBe(2);
    expect(nosuch.stderr).toMatch(
      /^error: --columns: no record has the column nosuch; the columns are productId, .*quoteId/,
    );
    const chosen = await run([
      'liability',
      'quotes',
      'get',
      quoteId,
      '--columns',
      'quoteId,status',
    ]);
    expect(chosen).toMatchObject({ code: 0, stdout: `quoteId\t${quoteId}\nstatus\tquoted\n` });
    const csv = await run([
      'liability',
      'quotes',
      'get',
      quoteId,
      '-o',
      'csv',
      '--columns',
      'status',
    ]);
    expect(csv.stdout).toBe('status\nquoted\n');
    const query = await run(['liability', 'quotes', 'get', quoteId, '--query', 'status']);
    expect(query.stdout).toBe('quoted\n');
  });

  test('an unknown quote id is an API error: status, code, message and correlation id; exit code 1', async () => {
    const result = await run(['liability', 'quotes', 'get', 'QTE-1999-0000404']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^error: 404 not_found: .+\n {2}correlationId: \S+\n {2}requestId: \S+\n$/,
    );
  });

  test('an invalid choice is a usage error before anything is sent', async () => {
    const before = requests('liability.createQuote');
    const result = await run([
      'liability',
      'quotes',
      'create',
      '--seller',
      sellerId,
      '--country-of-sales',
      'MARS',
      '--territory',
      'US',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "error: option '--country-of-sales <value>' argument 'MARS' is invalid. Allowed choices are EU-ASIA, US-CA-UK-IL-CL-AU, OTHERS.",
    );
    expect(requests('liability.createQuote')).toBe(before);
  });

  test('a refused secret is an API error that never shows the secret', async () => {
    const secret = 'not-the-right-secret-7f3a';
    const result = await run(['liability', 'quotes', 'search'], {
      ...sandboxEnv,
      PARTNER_APIS_LIABILITY_CLIENT_SECRET: secret,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: 401 authentication_error: /);
    // The hint a refused exposure token has, for liability too.
    expect(result.stderr).toMatch(/^ {2}hint: check the client ID and secret/m);
    expect(result.stdout + result.stderr).not.toContain(secret);
  });
});

describe('approvals', () => {
  test('list: the four groups as one list, oldest first', async () => {
    const result = await run([
      'approvals',
      'approvals',
      'list',
      '--employee-number',
      '100234',
      '--format',
      'json',
      '--tier',
      'gold',
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const entries = JSON.parse(result.stdout) as { kind: string; approvalCreatedDate: string }[];
    expect(entries.length).toBeGreaterThanOrEqual(4);
    expect(new Set(entries.map((entry) => entry.kind))).toEqual(
      new Set(['requisition', 'invoice', 'expenseReport', 'contract']),
    );
    const times = entries.map((entry) => Date.parse(entry.approvalCreatedDate));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  test('the table shows the employee and a summary per approval', async () => {
    const result = await run([
      'approvals',
      'approvals',
      'list',
      '--employee-number',
      '100234',
      '-o',
      'table',
    ]);
    expect(result.code).toBe(0);
    const [heading, blank, columns] = result.stdout.split('\n');
    expect(heading).toMatch(/^.+ \(100234\): \d+ outstanding approvals$/);
    expect(blank).toBe('');
    expect(columns).toMatch(/^created\s+kind\s+approvalId\s+status\s+subject\s+total\s+reason$/);
  });

  test('an error body from the service is printed with every cause and its pointer', async () => {
    sb.fault('approvals.getApprovals', {
      sequence: [
        {
          status: 400,
          body: {
            code: 'data_validation',
            message: 'employeeNumber is not known',
            correlationId: 'corr-e2e-1',
            causes: [{ code: 'unknown', message: 'no such employee', field: '/employeeNumber' }],
          },
        },
      ],
    });
    const result = await run(['approvals', 'approvals', 'list', '--employee-number', '999999']);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(
        /^error: 400 data_validation: employeeNumber is not known.*\n {2}correlationId: corr-e2e-1\n {2}requestId: \S+\n {2}cause: \/employeeNumber: no such employee \(unknown\)\n$/,
      ),
    });
  });

  test('a missing required option is a usage error', async () => {
    const result = await run(['approvals', 'approvals', 'list']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      "error: required option '--employee-number <value>' not specified\n(add --help for usage and examples)\n",
    );
  });
});

describe('former command names', () => {
  test.each([
    [
      ['liability', 'quote', 'search', '-o', 'ndjson'],
      'note: `partner-apis liability quote` is now `partner-apis liability quotes`.\n',
    ],
    [
      ['approvals', 'list', '--employee', '100234', '--limit', '1', '-o', 'ndjson'],
      'note: `partner-apis approvals list` is now `partner-apis approvals approvals list`, --employee is now --employee-number.\n',
    ],
    [
      ['exposure', 'sov', 'validate', 'missing.csv'],
      'note: `partner-apis exposure sov` is now `partner-apis exposure statement-of-values`.\n',
    ],
    [
      [
        '--env',
        'sandbox',
        'liability',
        'seller',
        'create',
        '--name',
        'Kettle & Co',
        '--country',
        'NL',
      ],
      'note: `partner-apis liability seller` is now `partner-apis liability sellers`.\n',
    ],
  ])('%j still works, with one line naming the new command', async (args, notice) => {
    const result = await run(args);
    expect(result.stderr.startsWith(notice)).toBe(true);
    expect(result.stderr).not.toContain('unknown command');
    expect(result.code).toBe(args.includes('missing.csv') ? 2 : 0);
    const quiet = await run(['-q', ...args]);
    expect(quiet.stderr).not.toContain('note:');
  });

  test('the former names are in no help', async () => {
    const help = await run(['liability', '--help']);
    expect(help.stdout).not.toMatch(/^\s+(seller|quote)\s/m);
    expect(help.stdout).toMatch(/^\s+sellers\s/m);
  });
});

describe('usage and configuration errors exit with 2', () => {
  test.each([
    [['exposure', 'locations', '--bogus'], "error: unknown option '--bogus'"],
    [
      ['exposure', 'locations', '--page-size', '0'],
      "error: option '--page-size <n>' argument '0' is invalid. must be a whole number from 1 to 1024.",
    ],
    [
      ['exposure', 'locations', '--modified-since', '2025-13-01'],
      'error: --modified-since must be a YYYY-MM-DD day (got "2025-13-01")',
    ],
    [['nonsense'], "error: unknown command 'nonsense'"],
    [
      ['--env', 'staging', 'demo'],
      "error: option '-e, --env <name>' argument 'staging' is invalid.",
    ],
  ])('%j', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });

  test('a missing variable is named', async () => {
    const result = await run(['liability', 'quotes', 'search'], {
      PARTNER_APIS_LIABILITY_BASE_URL: sandboxEnv.PARTNER_APIS_LIABILITY_BASE_URL!,
    });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      // Every missing variable at once, not one per run.
      stderr:
        'configuration error: PARTNER_APIS_LIABILITY_CLIENT_ID and PARTNER_APIS_LIABILITY_CLIENT_SECRET: are not set\n',
    });
  });

  test('a bad value is named by its variable', async () => {
    const result = await run(['liability', 'quotes', 'search'], {
      ...sandboxEnv,
      PARTNER_APIS_LIABILITY_BASE_URL: 'http://liability.example.com/v1/uat',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^configuration error: PARTNER_APIS_LIABILITY_BASE_URL: .*https/);
  });

  test('a production environment without settings', async () => {
    const result = await run(
      ['--env', 'production', 'approvals', 'approvals', 'list', '--employee-number', '1'],
      {},
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: the production environment has no settings/);
  });
});

describe("--env mock: the upstreams' mocking services", () => {
  test('base URLs from the config file, no credentials asked, no token requested', async () => {
    const seen: { path: string; authorization: string | undefined }[] = [];
    // A stand-in of the mocking services: fixed dummy data, no authentication checked.
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      seen.push({ path: url.pathname, authorization: request.headers.authorization });
      const first = (url.searchParams.get('offset') ?? '0') === '0';
      const body = url.pathname.endsWith('/locations')
        ? first
          ? [{ locationId: 'MOCK-1' }, { locationId: 'MOCK-2' }]
          : []
        : {
            employeeNumber: '1',
            requisitions: [],
            invoices: [],
            expenseReports: [],
            contracts: [],
          };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const cwd = await mkdtemp(join(tmpdir(), 'partner-apis-mock-'));
      await writeFile(
        join(cwd, 'partner-apis.config.json'),
        JSON.stringify({
          environments: {
            mock: {
              exposure: { baseUrl: `${origin}/portal` },
              approvals: { baseUrl: `${origin}/approvals` },
            },
          },
        }),
      );
      // Variables of another environment in the shell are not read.
      const elsewhere = { PARTNER_APIS_EXPOSURE_BASE_URL: 'https://production.example.com' };
      const locations = await run(
        ['--env', 'mock', 'exposure', 'locations', '-o', 'ndjson'],
        elsewhere,
        cwd,
      );
      expect(locations).toMatchObject({ code: 0, stderr: '' });
      expect(ndjson(locations.stdout)).toEqual([
        { locationId: 'MOCK-1' },
        { locationId: 'MOCK-2' },
      ]);
      const approvals = await run(
        ['--env', 'mock', 'approvals', 'approvals', 'list', '--employee-number', '1', '-o', 'json'],
        {},
        cwd,
      );
      expect(approvals).toMatchObject({ code: 0, stdout: '[]\n' });
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen.filter(({ path }) => /token/i.test(path))).toEqual([]);
      const liability = await run(['--env', 'mock', 'liability', 'quotes', 'search'], {}, cwd);
      expect(liability.code).toBe(2);
      expect(liability.stderr).toContain('environments.mock.liability.baseUrl');
    } finally {
      server.close();
    }
  });

  test('a mock environment with no settings names the setting to add', async () => {
    const result = await run(['--env', 'mock', 'exposure', 'locations'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: the mock environment has no settings: add environments\.mock\.<service>\.baseUrl/,
    );
  });
});

describe('config file', () => {
  test('environments of partner-apis.config.json, chosen with --env', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'partner-apis-config-'));
    await writeFile(
      join(cwd, 'partner-apis.config.json'),
      JSON.stringify({
        defaultEnvironment: 'uat',
        environments: {
          uat: {
            approvals: {
              baseUrl: sb.urls.approvals,
              clientId: sb.credentials.approvals.clientId,
              clientSecret: sb.credentials.approvals.clientSecret,
              tier: 'gold',
            },
          },
        },
      }),
    );
    const result = await run(
      ['approvals', 'approvals', 'list', '--employee-number', '100234', '--format', 'ndjson'],
      {},
      cwd,
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(ndjson(result.stdout).length).toBeGreaterThanOrEqual(4);
  });
});

describe('profiles of the user config file', () => {
  test('--profile: the sandbox credentials pasted as they are printed, beside their URLs', async () => {
    const xdg = await mkdtemp(join(tmpdir(), 'partner-apis-xdg-'));
    await mkdir(join(xdg, 'partner-apis'));
    const { credentials, urls } = sb;
    await writeFile(
      join(xdg, 'partner-apis', 'config.json'),
      JSON.stringify({
        profiles: {
          local: {
            tokenUrl: urls.tokenUrl,
            exposure: { baseUrl: urls.exposure, ...credentials.exposure },
            approvals: { baseUrl: urls.approvals, ...credentials.approvals },
          },
        },
      }),
    );
    const env = { XDG_CONFIG_HOME: xdg };
    const [locations, approvals] = await Promise.all([
      run(['--profile', 'local', 'exposure', 'locations', '--format', 'ndjson'], env),
      run(
        [
          'approvals',
          'approvals',
          'list',
          '--employee-number',
          '100234',
          '--format',
          'json',
          '--profile',
          'local',
        ],
        env,
      ),
    ]);
    expect(locations).toMatchObject({ code: 0, stderr: '' });
    expect(ndjson(locations.stdout)).toHaveLength(SIZES.exposureLocations);
    expect(approvals).toMatchObject({ code: 0, stderr: '' });
    const unknown = await run(
      ['--profile', 'nope', 'approvals', 'approvals', 'list', '--employee-number', '1'],
      env,
    );
    expect(unknown).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: there is no profile nope in ${join(xdg, 'partner-apis', 'config.json')}; the profiles are local\n`,
    });
  });
});

describe('sandbox start, status and stop', () => {
  test('the README liability flow: a seller created in one command is quoted in the next', async () => {
    const env = {
      XDG_STATE_HOME: await mkdtemp(join(tmpdir(), 'partner-apis-state-')),
      PARTNER_APIS_SANDBOX_SIZE: '20',
    };
    const stateFile = join(env.XDG_STATE_HOME, 'partner-apis', 'sandbox.json');
    try {
      expect(await run(['sandbox', 'status'], env)).toMatchObject({
        code: 1,
        stdout: expect.stringMatching(/^No sandbox is running in the background/),
      });
      const started = await run(['sandbox', 'start'], env);
      expect(started.code).toBe(0);
      expect(started.stderr).toMatch(
        /^Started a sandbox running at http:\/\/127\.0\.0\.1:\d+ \(pid \d+, /,
      );
      // Its settings are a profile of the user config file, credentials as the sandbox prints them.
      const profile = JSON.parse(started.stdout) as {
        exposure: { subscriptionKeys: { primary: string } };
      };
      expect(profile.exposure.subscriptionKeys.primary).toEqual(expect.any(String));
      expect((await stat(stateFile)).mode & 0o777).toBe(0o600);

      const status = await run(['sandbox', 'status'], env);
      expect(status).toMatchObject({
        code: 0,
        stdout: expect.stringMatching(/^sandbox running at /),
      });

      const seller = await run(createSeller(), env);
      expect(seller.code).toBe(0);
      expect(seller.stderr).toMatch(
        /^No credentials configured: using the sandbox at .* that `partner-apis sandbox start` started/,
      );
      const { sellerId } = JSON.parse(seller.stdout) as { sellerId: string };
      const quote = await run(
        [
          'liability',
          'quotes',
          'create',
          '--seller',
          sellerId,
          '--country-of-sales',
          'EU-ASIA',
          '--territory',
          'NON-US',
        ],
        env,
      );
      expect(quote.code).toBe(0);
      expect(quote.stdout).toMatch(/^status\s+quoted$/m);
      const search = await run(
        ['liability', 'quotes', 'search', '--seller-id', sellerId, '--format', 'ndjson'],
        env,
      );
      expect(ndjson(search.stdout)).toHaveLength(1);

      // The demo creates sellers and quotes of its own: never in the background sandbox.
      const demo = await run(['demo'], { ...env, PARTNER_APIS_SANDBOX_SIZE: '5' });
      expect(demo.code).toBe(0);
      expect(demo.stderr).toMatch(NOTICE);

      const stopped = await run(['sandbox', 'stop'], env);
      expect(stopped).toMatchObject({
        code: 0,
        stdout: expect.stringMatching(/^Stopped the sandbox at /),
      });
      expect(existsSync(stateFile)).toBe(false);
      expect((await run(['sandbox', 'status'], env)).code).toBe(1);
    } finally {
      if (existsSync(stateFile)) {
        const { pid } = JSON.parse(await readFile(stateFile, 'utf8')) as { pid: number };
        process.kill(pid, 'SIGTERM');
      }
    }
  });

  test('a start the sandbox refuses is a usage error, and nothing is left running', async () => {
    const env = {
      XDG_STATE_HOME: await mkdtemp(join(tmpdir(), 'partner-apis-state-')),
      PARTNER_APIS_SANDBOX_SIZE: '99999999',
    };
    const result = await run(['sandbox', 'start'], env);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: the sandbox refused PARTNER_APIS_SANDBOX_SIZE / _SEED (or the config's sandbox settings): sizes.exposureLocations must be an integer from 0 to 9999999\n",
    });
    expect(existsSync(join(env.XDG_STATE_HOME, 'partner-apis', 'sandbox.json'))).toBe(false);
  });

  test('stop with nothing running says so', async () => {
    const env = { XDG_STATE_HOME: await mkdtemp(join(tmpdir(), 'partner-apis-state-')) };
    expect(await run(['sandbox', 'stop'], env)).toEqual({
      code: 0,
      stdout: '',
      stderr: 'No sandbox is running in the background.\n',
    });
  });
});

describe('embedded sandbox', () => {
  test('with no credentials, data stays clean on stdout and the notice goes to stderr', async () => {
    const result = await run(['exposure', 'locations', '--format', 'ndjson'], {
      PARTNER_APIS_SANDBOX_SIZE: '57',
    });
    expect(result.code).toBe(0);
    expect(ndjson(result.stdout)).toHaveLength(57);
    expect(result.stderr).toMatch(NOTICE);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  test('a sandbox size it refuses is a usage error', async () => {
    const result = await run(['exposure', 'locations'], { PARTNER_APIS_SANDBOX_SIZE: '99999999' });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: the embedded sandbox refused PARTNER_APIS_SANDBOX_SIZE / _SEED (or the config's sandbox settings): sizes.exposureLocations must be an integer from 0 to 9999999\n",
    });
  });

  test('demo: every service once, against the sandbox', async () => {
    const result = await run(['demo'], { PARTNER_APIS_SANDBOX_SIZE: '40' });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(NOTICE);
    const out = result.stdout;
    expect(out).toContain(
      '1. Exposure: locations and a Statement of Values\n   40 locations in 1 page of up to 1,024\n',
    );
    expect(out).toMatch(/^ {3}LOC-0000001 {2}\S.* \d+ +[A-Z]{3}$/m);
    expect(out).toMatch(
      /Statement of Values of the [1-3] [A-Z]{3} locations?: 0 problems locally; submitted/,
    );
    expect(out).toContain(
      '2. Risk engineering: gradings and locations\n   40 gradings in 1 page\n',
    );
    expect(out).toMatch(/^ {3}GRD-0000001 {2}LOC-\d+ {2}[A-E] /m);
    expect(out).toContain('   40 risk locations in 1 page\n');
    expect(out).toMatch(/^ {3}seller SEL-\d+: Nordlicht Home GmbH \(DE\)$/m);
    expect(out).toMatch(
      /^ {3}quote \(EU-ASIA, NON-US\) QTE-\d{4}-\d+: quoted, \d+\.\d{2} EUR, no referrals$/m,
    );
    expect(out).toMatch(
      /^ {3}quote \(US-CA-UK-IL-CL-AU, US\) QTE-\d{4}-\d+: referred, \d+\.\d{2} EUR, referrals: US_TERRITORY_OF_SALES — /m,
    );
    expect(out).toMatch(/^ {3}quotes search --seller-id SEL-\d+: 2 quotes$/m);
    expect(out).toMatch(
      /^4\. Approvals: employee 100234\n {3}.+: \d+ outstanding approvals, oldest first$/m,
    );
    expect(out).toMatch(/^Done: \d+ requests, all answered by the sandbox on 127\.0\.0\.1\.$/m);
  });

  test('demo ignores configured credentials: it never writes to a real environment', async () => {
    const result = await run(['demo'], {
      PARTNER_APIS_SANDBOX_SIZE: '5',
      PARTNER_APIS_LIABILITY_BASE_URL: 'https://liability.invalid/v1/uat',
      PARTNER_APIS_LIABILITY_CLIENT_ID: 'real-client',
      PARTNER_APIS_LIABILITY_CLIENT_SECRET: 'real-secret',
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(NOTICE);
    expect(result.stdout).toMatch(/quotes search --seller-id SEL-\d+: 2 quotes/);
  });
});

describe('credentials check', () => {
  const day = (offset: number) =>
    new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

  test('days left per configured client; warns within 60 days; exit 1 once expired', async () => {
    const result = await run(['credentials', 'check', '--format', 'json'], {
      ...sandboxEnv,
      PARTNER_APIS_EXPOSURE_SECRET_EXPIRES_AT: day(200),
      PARTNER_APIS_LIABILITY_SECRET_EXPIRES_AT: day(30),
      PARTNER_APIS_APPROVALS_SECRET_CREATED_AT: day(-400),
    });
    expect(result.code).toBe(1);
    const statuses = JSON.parse(result.stdout) as {
      service: string;
      status: string;
      daysLeft: number | null;
    }[];
    expect(statuses.map(({ service, status }) => [service, status])).toEqual([
      ['exposure', 'ok'],
      ['riskEngineering', 'unknown'],
      ['liability', 'warn'],
      ['approvals', 'expired'],
    ]);
    expect(statuses[0]!.daysLeft).toBeGreaterThanOrEqual(199);
    expect(result.stderr.split('\n')).toEqual([
      "note: the risk engineering secret's date is not configured (set PARTNER_APIS_RISKENGINEERING_SECRET_CREATED_AT or PARTNER_APIS_RISKENGINEERING_SECRET_EXPIRES_AT)",
      expect.stringMatching(
        /^warning: the liability secret expires in (29|30) days \(\d{4}-\d{2}-\d{2}\); set a new one in the customer portal$/,
      ),
      expect.stringMatching(/^error: the approvals secret expired on \d{4}-\d{2}-\d{2}$/),
      '',
    ]);
  });

  test('with nothing configured there is nothing to check', async () => {
    const result = await run(['credentials', 'check'], {});
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr: 'No credentials configured: the embedded sandbox needs none.\nNo records.\n',
    });
  });

  test('--env sandbox reads no variable, so only the config file settings are named', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'partner-apis-check-'));
    await writeFile(
      join(cwd, 'partner-apis.config.json'),
      JSON.stringify({
        environments: {
          sandbox: { liability: { baseUrl: sb.urls.liability, secretCreatedAt: 'last spring' } },
        },
      }),
    );
    const bad = await run(['--env', 'sandbox', 'credentials', 'check'], {}, cwd);
    expect(bad).toMatchObject({
      code: 2,
      stderr: `configuration error: ${join(cwd, 'partner-apis.config.json')}: environments.sandbox.liability.secretCreatedAt: must be a date such as 2026-01-15\n`,
    });
    await writeFile(
      join(cwd, 'partner-apis.config.json'),
      JSON.stringify({ environments: { sandbox: { liability: { baseUrl: sb.urls.liability } } } }),
    );
    const result = await run(['--env', 'sandbox', 'credentials', 'check'], {}, cwd);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `note: the liability secret's date is not configured (set secretCreatedAt or secretExpiresAt in environments.sandbox.liability of ${join(cwd, 'partner-apis.config.json')})\n`,
    );
    expect(result.stderr).not.toContain('PARTNER_APIS_');
  });

  test('a date that is not a date names its variable', async () => {
    const result = await run(['credentials', 'check'], {
      PARTNER_APIS_LIABILITY_CLIENT_ID: 'x',
      PARTNER_APIS_LIABILITY_SECRET_CREATED_AT: 'last spring',
    });
    expect(result).toMatchObject({
      code: 2,
      stderr:
        'configuration error: PARTNER_APIS_LIABILITY_SECRET_CREATED_AT: must be a date such as 2026-01-15\n',
    });
  });
});
