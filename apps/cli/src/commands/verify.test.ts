import { once } from 'node:events';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '@partner-apis/sandbox';
import {
  refusedUrl,
  startConnectProxy,
  startStrictUpstream,
  type StrictUpstream,
} from '@partner-apis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../program.js';

const SPECS = fileURLToPath(new URL('../../../../specs', import.meta.url));

let upstream: StrictUpstream;
let cwd: string;
beforeAll(async () => {
  upstream = await startStrictUpstream();
  cwd = mkdtempSync(join(tmpdir(), 'cli-verify-'));
});
afterAll(async () => {
  await upstream.close();
  rmSync(cwd, { recursive: true, force: true });
});

/** The variables of an environment that is the strict stand-in: exposure and approvals. */
function environment(): Record<string, string> {
  const { exposure, approvals } = upstream.credentials;
  return {
    XDG_CONFIG_HOME: cwd,
    PARTNER_APIS_EXPOSURE_BASE_URL: upstream.urls.exposure,
    PARTNER_APIS_EXPOSURE_TOKEN_URL: upstream.urls.tokenUrl,
    PARTNER_APIS_EXPOSURE_CLIENT_ID: exposure.clientId,
    PARTNER_APIS_EXPOSURE_CLIENT_SECRET: exposure.clientSecret,
    PARTNER_APIS_EXPOSURE_SUBSCRIPTION_KEY: exposure.subscriptionKeys.primary,
    PARTNER_APIS_APPROVALS_BASE_URL: upstream.urls.approvals,
    PARTNER_APIS_APPROVALS_CLIENT_ID: approvals.clientId,
    PARTNER_APIS_APPROVALS_CLIENT_SECRET: approvals.clientSecret,
    PARTNER_APIS_APPROVALS_TIER: 'gold',
  };
}

async function run(args: readonly string[], env = environment()) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await runCli(['verify', '--pace', 'gold', ...args], { stdout, stderr, env, cwd });
  return { code, stdout: out, stderr: err };
}

const secrets = () => {
  const { exposure, approvals } = upstream.credentials;
  return [exposure.clientSecret, exposure.subscriptionKeys.primary, approvals.clientSecret];
};

describe('partner-apis verify', () => {
  it('reports each finding by spec and pointer as JSON, and fails while a guess is contradicted', async () => {
    const { code, stdout, stderr } = await run([
      '--employee',
      upstream.fixtures.employeeNumber,
      '--format',
      'json',
    ]);
    expect(code).toBe(1);
    const { findings } = JSON.parse(stdout) as {
      findings: { spec: string; pointer: string; status: string }[];
    };
    expect(findings).toContainEqual(
      expect.objectContaining({
        spec: 'common',
        pointer: '/components/parameters/Offset/x-upstream-gap',
        status: 'contradicted',
      }),
    );
    expect(findings).toContainEqual(
      expect.objectContaining({
        spec: 'approvals',
        pointer: '/components/schemas/ApprovalItem/x-upstream-gap',
        status: 'contradicted',
      }),
    );
    for (const secret of secrets()) expect(stdout + stderr).not.toContain(secret);
  });

  it('writes the edits into the specs with --write-specs, and says what comes next', async () => {
    const specs = join(cwd, 'specs');
    cpSync(SPECS, specs, { recursive: true });
    const { code, stdout, stderr } = await run(['--write-specs']);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^contradicted {2}common {2}\/components\/parameters\/Offset\/x-upstream-gap$/m,
    );
    expect(stderr).toMatch(
      /Edited specs\/.*common\/openapi\.yaml.*Next: pnpm lint:specs, pnpm generate, pnpm spec:diff/s,
    );
    expect(readFileSync(join(specs, 'common', 'openapi.yaml'), 'utf8')).toMatch(/x-paging: page\n/);
    expect(readFileSync(join(specs, 'auth', 'openapi.yaml'), 'utf8')).toMatch(
      /scope:\n {16}style: form\n/,
    );
  });

  it('checks the embedded sandbox when nothing is configured, and every guess holds there', async () => {
    const { code, stdout, stderr } = await run(['--output', 'json', '--allow-writes'], {
      XDG_CONFIG_HOME: cwd,
    });
    expect(stderr).toMatch(/No credentials configured: using the embedded sandbox/);
    const { findings } = JSON.parse(stdout) as { findings: { status: string }[] };
    expect(findings.length).toBeGreaterThan(20);
    expect(findings.filter((finding) => finding.status !== 'confirmed')).toEqual([]);
    expect(code).toBe(0);
  });

  it('has --help with an example of itself', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('  $ partner-apis verify\n');
    expect(stdout).toMatch(/--write-specs \[folder\]/);
  });

  it('refuses --write-specs without a specs folder before sending anything', async () => {
    const before = upstream.requests.length;
    const { code, stderr } = await run(['--write-specs', 'nowhere']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--write-specs: .*nowhere holds no common\/openapi\.yaml/);
    expect(upstream.requests.length).toBe(before);
  });

  it('goes through the proxy of HTTP_PROXY to the environment behind it, as every command does', async () => {
    const sb = await startSandbox();
    const proxy = await startConnectProxy();
    try {
      const { code, stdout, stderr } = await run(
        ['--employee', sb.fixtures.employeeWithApprovals, '-o', 'json'],
        {
          XDG_CONFIG_HOME: cwd,
          HTTP_PROXY: proxy.url,
          PARTNER_APIS_APPROVALS_BASE_URL: sb.urls.approvals,
          PARTNER_APIS_APPROVALS_CLIENT_ID: sb.credentials.approvals.clientId,
          PARTNER_APIS_APPROVALS_CLIENT_SECRET: sb.credentials.approvals.clientSecret,
          PARTNER_APIS_APPROVALS_TIER: 'gold',
        },
      );
      expect(proxy.tunnels).toContain(new URL(sb.urls.approvals).host);
      const { findings } = JSON.parse(stdout) as { findings: { status: string }[] };
      expect(findings.filter((finding) => finding.status !== 'confirmed')).toEqual([]);
      expect(code).toBe(0);
      // Progress on stderr, one line per check.
      expect(stderr).toBe(
        'verify: approvals: an omitted employeeNumber, and the approvals of an employee\n',
      );
    } finally {
      proxy.close();
      await sb.close();
    }
  });

  it('exits 3 when it could observe nothing, each finding naming the refused connection', async () => {
    const url = await refusedUrl();
    const { code, stdout } = await run(['--employee', '100234'], {
      XDG_CONFIG_HOME: cwd,
      PARTNER_APIS_APPROVALS_BASE_URL: `${url}/v1`,
      PARTNER_APIS_APPROVALS_CLIENT_ID: 'app',
      PARTNER_APIS_APPROVALS_CLIENT_SECRET: 'secret-of-app',
      COLUMNS: '80',
    });
    expect(code).toBe(3);
    expect(stdout).toMatch(/^3 findings: 0 contradicted, 3 unobserved, 0 confirmed, 0 skipped$/m);
    expect(stdout.replace(/\s+/g, ' ')).toContain(
      `GET ${url}/v1/approvals: connection refused (ECONNREFUSED)`,
    );
    // The report keeps to the width of COLUMNS, a pointer being one word.
    expect(stdout.split('\n').filter((line) => line.length > 80 && / \S+ /.test(line))).toEqual([]);
  });

  it('against --env mock, asks for no token, judges nothing it cannot tell apart and writes nothing to a spec', async () => {
    // A stand-in of the mocking services: the same answer to anything, no credentials checked.
    const paths: string[] = [];
    const server = createServer((request, response) => {
      paths.push(new URL(request.url ?? '/', 'http://x').pathname);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify([{ employeeNumber: '1', requisitionApprovals: [] }]));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const dir = mkdtempSync(join(tmpdir(), 'cli-verify-mock-'));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      writeFileSync(
        join(dir, 'partner-apis.config.json'),
        JSON.stringify({
          environments: {
            mock: {
              exposure: { baseUrl: `${origin}/portal` },
              approvals: { baseUrl: `${origin}/v1` },
            },
          },
        }),
      );
      cpSync(SPECS, join(dir, 'specs'), { recursive: true });
      const stdout = new PassThrough();
      let out = '';
      stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const code = await runCli(
        ['--env', 'mock', 'verify', '--pace', 'gold', '-o', 'json', '--write-specs'],
        { stdout, stderr: new PassThrough(), env: { XDG_CONFIG_HOME: dir }, cwd: dir },
      );
      const { findings, notes } = JSON.parse(out) as {
        findings: { pointer: string; status: string; edit?: unknown }[];
        notes: string[];
      };
      expect(paths.filter((path) => path.endsWith('/token'))).toEqual([]);
      expect(paths).toContain('/portal/open/portal-api/exposure/locations');
      expect(notes).toEqual([
        expect.stringMatching(/^exposure is a mocking service \(mock\)/),
        expect.stringMatching(/^approvals is a mocking service \(mock\)/),
      ]);
      expect(findings).toContainEqual(
        expect.objectContaining({
          pointer: '/paths/~1approvals/get/parameters/0/x-upstream-gap',
          status: 'unobserved',
        }),
      );
      expect(findings.filter((finding) => finding.edit !== undefined)).toEqual([]);
      for (const spec of ['approvals', 'common', 'auth', 'exposure']) {
        expect(readFileSync(join(dir, 'specs', spec, 'openapi.yaml'), 'utf8')).toBe(
          readFileSync(join(SPECS, spec, 'openapi.yaml'), 'utf8'),
        );
      }
      expect(code).toBe(3);
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 0 for a read-only run of the embedded sandbox', async () => {
    const { code, stdout } = await run([], { XDG_CONFIG_HOME: cwd });
    expect(stdout).toMatch(
      /^\d+ findings: 0 contradicted, 0 unobserved, \d+ confirmed, \d+ skipped$/m,
    );
    expect(stdout).toMatch(
      /^skipped +liability +\/components\/schemas\/Quote\/x-upstream-gap\n {2}liability searchQuotes: the answers held no record to look at$/m,
    );
    expect(code).toBe(0);
  });

  it('exits 3 when the proxy does not answer, naming the proxy', async () => {
    const dead = await refusedUrl();
    const { code, stdout } = await run(['--employee', '100234'], {
      XDG_CONFIG_HOME: cwd,
      HTTP_PROXY: dead,
      PARTNER_APIS_APPROVALS_BASE_URL: `${upstream.urls.approvals}`,
      PARTNER_APIS_APPROVALS_CLIENT_ID: 'app',
      PARTNER_APIS_APPROVALS_CLIENT_SECRET: 'secret-of-app',
    });
    expect(code).toBe(3);
    expect(stdout.replace(/\s+/g, ' ')).toContain(
      `the proxy 127.0.0.1:${new URL(dead).port}: connection refused (ECONNREFUSED)`,
    );
  });

  it('reports in JUnit XML and in SARIF located in ./specs', async () => {
    const specs = join(cwd, 'specs');
    cpSync(SPECS, specs, { recursive: true });
    const junit = await run(['--employee', upstream.fixtures.employeeNumber, '-o', 'junit']);
    expect(junit.code).toBe(1);
    expect(junit.stdout).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="partner-apis verify" tests="\d+" failures="[1-9]\d*"/,
    );
    const sarif = await run(['--employee', upstream.fixtures.employeeNumber, '-o', 'sarif']);
    expect(sarif.code).toBe(1);
    const log = JSON.parse(sarif.stdout) as {
      runs: {
        results: {
          locations: {
            physicalLocation: { artifactLocation: { uri: string }; region?: unknown };
          }[];
        }[];
      }[];
    };
    const located = log.runs[0]!.results.map((r) => r.locations[0]!.physicalLocation);
    expect(located).toContainEqual({
      artifactLocation: { uri: 'specs/common/openapi.yaml' },
      region: expect.objectContaining({ startLine: expect.any(Number) }),
    });
  });
});
