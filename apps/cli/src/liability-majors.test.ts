import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startSandbox, type Sandbox, type SandboxStats } from '@partner-apis/sandbox';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createSeller, runBuiltCli, type Run } from './cli.fixture.js';
import { sandboxVariables } from './config/sandbox-variables.js';
import type { LiabilityMajors } from './liability-majors.js';
import { runCli } from './program.js';

// An upstream's parallel run, rehearsed: a fixture v2 of the liability API (its sellers need a
// registration number), served beside v1, and the CLI given a client for each major. The
// current client package stands in for the v2 one: what is tested is where the CLI sends.
const LIABILITY_V2 = `openapi: 3.1.0
info:
  title: Third Party Liability Quote Service (fixture v2)
  version: 2.0.0
paths:
  /parties/sellers:
    post:
      operationId: createSeller
      parameters:
        - { name: X-Z-Request-Id, in: header, required: true, schema: { type: string } }
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name, address, registrationNumber]
              properties:
                name: { type: string }
                registrationNumber: { type: string }
                address:
                  type: object
                  required: [country]
                  properties: { country: { type: string } }
      responses:
        2XX:
          description: The seller was created.
          content:
            application/json:
              schema:
                type: object
                required: [sellerId]
                properties: { sellerId: { type: string } }
`;

const MAJORS: LiabilityMajors = {
  1: () => import('@partner-apis/liability'),
  2: () => import('@partner-apis/liability'),
};

let sb: Sandbox;
let dir: string;
let v2File: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'partner-apis-majors-'));
  v2File = join(dir, 'liability-v2.yaml');
  await writeFile(v2File, LIABILITY_V2);
  sb = await startSandbox({ liabilityMajors: [parseYaml(LIABILITY_V2) as object] });
});
afterAll(() => sb?.close());

/** Runs the CLI in this process, with the fixture majors, as a user's shell would. */
async function cli(
  args: string[],
  env: Record<string, string> = {},
  majors: LiabilityMajors = MAJORS,
): Promise<Run> {
  const run: Run = { code: null, stdout: '', stderr: '' };
  const capture = (stream: 'stdout' | 'stderr') =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        run[stream] += chunk.toString();
        done();
      },
    });
  run.code = await runCli(
    args,
    {
      stdout: capture('stdout'),
      stderr: capture('stderr'),
      env: { HOME: dir, NODE_ENV: 'test', ...env },
      cwd: dir,
    },
    { liabilityMajors: majors },
  );
  return run;
}

/** Runs the built CLI in a child process: what `sandbox start` spawns needs a real binary. */
function bin(args: string[], env: Record<string, string>): Promise<Run> {
  return runBuiltCli(args, { PATH: process.env.PATH ?? '', HOME: dir, ...env }, dir);
}

function requests(stats: SandboxStats, route: string): number {
  return stats.routes[route]?.requests ?? 0;
}

/** How many requests reached v1's and v2's createSeller while `action` ran. */
async function sellersCreated(
  action: () => Promise<Run>,
): Promise<[Run, { v1: number; v2: number }]> {
  const before = sb.stats();
  const run = await action();
  const after = sb.stats();
  return [
    run,
    {
      v1: requests(after, 'liability.createSeller') - requests(before, 'liability.createSeller'),
      v2:
        requests(after, 'liability.v2.createSeller') -
        requests(before, 'liability.v2.createSeller'),
    },
  ];
}

describe('liability --major against a configured environment', () => {
  test('--major 2 calls /liability/v2/… (the /v1 of the base URL swapped), validated by v2', async () => {
    const env = sandboxVariables(sb);
    const [created, sent] = await sellersCreated(() =>
      cli(createSeller('--major', '2', '--registration-number', 'HRB 214477'), env),
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(created.stdout)).toMatchObject({ sellerId: expect.stringMatching(/^SEL-/) });
    expect(sent).toEqual({ v1: 0, v2: 1 });

    // v2 requires the registration number; v1 does not.
    const [refused, refusedSent] = await sellersCreated(() =>
      cli(createSeller('--major', '2'), env),
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: 400 data_validation: /);
    expect(refused.stderr).toContain('registrationNumber');
    expect(refusedSent).toEqual({ v1: 0, v2: 1 });
  });

  test('the highest major is the default; PARTNER_APIS_LIABILITY_MAJOR and --major choose another', async () => {
    const env = sandboxVariables(sb);
    const registration = ['--registration-number', 'HRB 1'];
    expect((await sellersCreated(() => cli(createSeller(...registration), env)))[1]).toEqual({
      v1: 0,
      v2: 1,
    });
    const v1 = { ...env, PARTNER_APIS_LIABILITY_MAJOR: '1' };
    expect((await sellersCreated(() => cli(createSeller(), v1)))[1]).toEqual({ v1: 1, v2: 0 });
    // The option wins over the variable.
    const flag = () => cli(createSeller('--major', '2', ...registration), v1);
    expect((await sellersCreated(flag))[1]).toEqual({ v1: 0, v2: 1 });
    // With only v1 in the CLI, its default is v1 whatever the base URL says.
    const onlyV1 = { 1: MAJORS[1]! };
    expect((await sellersCreated(() => cli(createSeller(), env, onlyV1)))[1]).toEqual({
      v1: 1,
      v2: 0,
    });
  });

  test('a profile: liability.major chooses, liability.baseUrls gives a major its own URL', async () => {
    const xdg = await mkdtemp(join(tmpdir(), 'partner-apis-majors-xdg-'));
    await mkdir(join(xdg, 'partner-apis'));
    const file = join(xdg, 'partner-apis', 'config.json');
    const liability = {
      // A gateway URL without a version segment: only baseUrls says where each major is.
      baseUrl: `${sb.urls.origin}/liability-gateway`,
      baseUrls: { 2: sb.urls.liabilityMajors[2] },
      ...sb.credentials.liability,
    };
    await writeFile(
      file,
      JSON.stringify({
        profiles: {
          v2: { liability },
          v1: { liability: { ...liability, major: 1 } },
        },
      }),
    );
    const env = { XDG_CONFIG_HOME: xdg };
    const registration = ['--registration-number', 'HRB 2'];
    const [v2, sentV2] = await sellersCreated(() =>
      cli(['--profile', 'v2', ...createSeller(...registration)], env),
    );
    expect(v2).toMatchObject({ code: 0, stderr: '' });
    expect(sentV2).toEqual({ v1: 0, v2: 1 });

    const [v1, sentV1] = await sellersCreated(() =>
      cli(['--profile', 'v1', ...createSeller()], env),
    );
    expect(v1).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `configuration error: ${file}: profiles.v1.liability.baseUrl: needs exactly one /v<major> path segment ` +
        'to call liability v1 at (as /v1 in https://liability.example.com/v1/uat); or set ' +
        'PARTNER_APIS_LIABILITY_V1_BASE_URL (liability.baseUrls.1 in a config file)\n',
    });
    expect(sentV1).toEqual({ v1: 0, v2: 0 });
  });

  test('a base URL with no single /v<n> segment cannot be swapped: the variable is named, nothing is sent', async () => {
    for (const path of ['/liability/sandbox', '/v1/liability/v1/sandbox']) {
      const env = {
        ...sandboxVariables(sb),
        PARTNER_APIS_LIABILITY_BASE_URL: `${sb.urls.origin}${path}`,
      };
      const [result, sent] = await sellersCreated(() => cli(createSeller('--major', '1'), env));
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^configuration error: PARTNER_APIS_LIABILITY_BASE_URL: needs exactly one \/v<major> path segment to call liability v1 at /,
      );
      expect(sent).toEqual({ v1: 0, v2: 0 });
    }
  });

  test('a major the CLI has no client for is a usage error naming those it has', async () => {
    const env = sandboxVariables(sb);
    const flag = await cli(createSeller('--major', '3'), env);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain(
      "error: option '--major <n>' argument '3' is invalid. Allowed choices are 1, 2.",
    );
    const variable = await cli(createSeller(), { ...env, PARTNER_APIS_LIABILITY_MAJOR: 'two' });
    expect(variable).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: PARTNER_APIS_LIABILITY_MAJOR: the CLI has no client for major two of the liability API; it calls v1, v2\n',
    });
  });

  test('--major is completed with the majors the CLI calls, and every liability command has it', async () => {
    const completed = await cli(['__complete', 'liability', 'quotes', 'search', '--major', '']);
    expect(completed.stdout).toBe('1\n2\n');
    for (const command of [
      ['seller', 'create'],
      ['quote', 'create'],
      ['quotes', 'get'],
      ['quotes', 'search'],
    ]) {
      const help = await cli(['liability', ...command, '--help']);
      expect(help.stdout, command.join(' ')).toContain('--major <n>');
    }
  });
});

describe('liability --major against a sandbox of the CLI', () => {
  test('the embedded sandbox serves v1 only: --major 2 says how to start one that serves v2', async () => {
    const v2 = await cli(createSeller('--major', '2', '--registration-number', 'HRB 3'));
    expect(v2.code).toBe(2);
    expect(v2.stdout).toBe('');
    expect(v2.stderr).toMatch(
      /error: the sandbox at http:\/\/127\.0\.0\.1:\d+ serves liability v1, not v2: choose one of those with --major, or start a sandbox that serves v2 with `partner-apis sandbox start --liability-spec <its spec file>`\n$/,
    );
    const v1 = await cli(createSeller('--major', '1'));
    expect(v1.code).toBe(0);
  });

  test('sandbox start --liability-spec: the state and the profile have every major; --major 2 reaches /liability/v2/…', async () => {
    const env = { XDG_STATE_HOME: await mkdtemp(join(tmpdir(), 'partner-apis-majors-state-')) };
    const stateFile = join(env.XDG_STATE_HOME, 'partner-apis', 'sandbox.json');
    try {
      const started = await bin(['sandbox', 'start', '--liability-spec', 'liability-v2.yaml'], {
        ...env,
        PARTNER_APIS_SANDBOX_SIZE: '5',
      });
      expect(started.code).toBe(0);
      const profile = JSON.parse(started.stdout) as {
        liability: { baseUrl: string; baseUrls: Record<string, string> };
      };
      const origin = /^(http:\/\/127\.0\.0\.1:\d+)\//.exec(profile.liability.baseUrl)![1];
      expect(profile.liability).toMatchObject({
        baseUrl: `${origin}/liability/v1/sandbox`,
        baseUrls: { 1: `${origin}/liability/v1/sandbox`, 2: `${origin}/liability/v2/sandbox` },
      });
      const state = JSON.parse(await readFile(stateFile, 'utf8')) as {
        urls: { liabilityMajors: Record<string, string>; admin: string };
      };
      expect(state.urls.liabilityMajors).toEqual(profile.liability.baseUrls);

      const created = await cli(
        createSeller('--major', '2', '--registration-number', 'HRB 4'),
        env,
      );
      expect(created.code).toBe(0);
      expect(created.stderr).toMatch(/^No credentials configured: using the sandbox at /);
      const stats = (await (await fetch(`${state.urls.admin}/stats`)).json()) as SandboxStats;
      expect(requests(stats, 'liability.v2.createSeller')).toBe(1);
      expect(requests(stats, 'liability.createSeller')).toBe(0);
    } finally {
      await bin(['sandbox', 'stop'], env);
    }
    expect(existsSync(stateFile)).toBe(false);
  });

  test('a --liability-spec the sandbox cannot serve is one line naming the file; nothing is left running', async () => {
    const env = { XDG_STATE_HOME: await mkdtemp(join(tmpdir(), 'partner-apis-majors-state-')) };
    await writeFile(
      join(dir, 'v1-again.json'),
      JSON.stringify(parseYaml(LIABILITY_V2.replace('2.0.0', '1.0.0'))),
    );
    await writeFile(
      join(dir, 'unbundled.yaml'),
      LIABILITY_V2.replace(
        '- { name: X-Z-Request-Id, in: header, required: true, schema: { type: string } }',
        "- $ref: '../common/openapi.yaml#/components/parameters/RequestId'",
      ),
    );
    await writeFile(
      join(dir, 'no-operation-id.json'),
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'v4', version: '4.0.0' },
        paths: { '/sellers': { get: { responses: { 200: { description: 'ok' } } } } },
      }),
    );
    for (const [file, problem] of [
      ['missing.yaml', 'there is no such file'],
      ['no-operation-id.json', 'GET /sellers has no operationId'],
      ['v1-again.json', 'the liability API v1 is served already'],
      [
        'unbundled.yaml',
        'its $ref "../common/openapi.yaml#/components/parameters/RequestId" points into another file',
      ],
    ] as const) {
      const result = await bin(['sandbox', 'start', '--liability-spec', file], env);
      expect(result.code, file).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(new RegExp(`^error: --liability-spec ${file}\\b[^\\n]*\\n$`));
      expect(result.stderr).toContain(problem);
    }
    expect(existsSync(join(env.XDG_STATE_HOME, 'partner-apis', 'sandbox.json'))).toBe(false);
  });
});
