import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { startStrictUpstream, type StrictUpstream } from '@partner-apis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN } from '../cli.fixture.js';

const REPOSITORY = fileURLToPath(new URL('../../../../', import.meta.url));
const WORKFLOW = join(REPOSITORY, 'docs', 'workflows', 'verify-uat-nightly.yml');
const sh = promisify(execFile);

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}
interface Workflow {
  jobs: { verify: { env: Record<string, string>; steps: Step[] } };
}

/** The steps that set up a runner; the test runs the command line the repository built. */
const SET_UP = new Set(['Install', 'Build the command line']);

/** What a run of the workflow came to: each step's outcome, its outputs, what the actions got. */
interface WorkflowRun {
  outcomes: Record<string, 'success' | 'failure' | 'skipped'>;
  outputs: Record<string, Record<string, string>>;
  sarif?: { version: string; runs: { results: unknown[] }[] };
  pullRequest?: { with: Record<string, string>; changed: string };
  failed: boolean;
}

/**
 * Whether a step runs: the expressions the workflow uses (`always()`, `steps.ID.outputs.NAME`
 * compared with `==` or `!=`, joined by `&&` and `||`), and without `always()` only while no
 * step failed, as the runner decides.
 */
function runs(condition: string | undefined, run: WorkflowRun): boolean {
  if (condition === undefined) return !run.failed;
  const term = (text: string): boolean => {
    const trimmed = text.trim();
    if (trimmed === 'always()') return true;
    const match = /^steps\.(\w+)\.outputs\.(\w+) (==|!=) '([^']*)'$/.exec(trimmed);
    if (match === null) throw new Error(`an expression this test does not read: ${trimmed}`);
    const [, id, name, operator, value] = match as unknown as [
      string,
      string,
      string,
      string,
      string,
    ];
    const actual = run.outputs[id]?.[name] ?? '';
    return operator === '==' ? actual === value : actual !== value;
  };
  const value = condition
    .split('||')
    .some((either) => either.split('&&').every((both) => term(both)));
  return condition.includes('always()') ? value : value && !run.failed;
}

/** Runs the workflow's steps in `dir` (a repository with `specs/`) with `values` for its variables and secrets. */
async function runWorkflow(dir: string, values: Record<string, string>): Promise<WorkflowRun> {
  const workflow = parse(readFileSync(WORKFLOW, 'utf8')) as Workflow;
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: dir };
  for (const [name, value] of Object.entries(workflow.jobs.verify.env)) {
    env[name] = value.replace(
      /\$\{\{ (?:vars|secrets)\.(\w+) \}\}/g,
      (_, key: string) => values[key] ?? '',
    );
  }
  const run: WorkflowRun = { outcomes: {}, outputs: {}, failed: false };
  for (const [index, step] of workflow.jobs.verify.steps.entries()) {
    const id = step.id ?? String(index);
    if (!runs(step.if, run) || SET_UP.has(step.name ?? '')) {
      run.outcomes[step.name ?? step.uses ?? id] = 'skipped';
      continue;
    }
    if (step.uses?.startsWith('github/codeql-action/upload-sarif')) {
      run.sarif = JSON.parse(
        readFileSync(join(dir, step.with!.sarif_file!), 'utf8'),
      ) as WorkflowRun['sarif'];
    } else if (step.uses?.startsWith('peter-evans/create-pull-request')) {
      const { stdout } = await sh('git', ['status', '--porcelain', '--', 'specs'], { cwd: dir });
      run.pullRequest = { with: step.with!, changed: stdout };
    } else if (step.run !== undefined) {
      const output = join(dir, `.output-${index}`);
      writeFileSync(output, '');
      const ok = await sh('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
        cwd: dir,
        env: { ...env, GITHUB_OUTPUT: output },
        timeout: 120_000,
      }).then(
        () => true,
        () => false,
      );
      run.outputs[id] = Object.fromEntries(
        readFileSync(output, 'utf8')
          .split('\n')
          .filter((line) => line.includes('='))
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      if (!ok) run.failed = true;
      run.outcomes[step.name ?? id] = ok ? 'success' : 'failure';
      continue;
    }
    run.outcomes[step.name ?? step.uses ?? id] = 'success';
  }
  return run;
}

/** A repository with the specs committed and the command line the repository built. */
async function checkout(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'verify-workflow-'));
  cpSync(join(REPOSITORY, 'specs'), join(dir, 'specs'), { recursive: true });
  mkdirSync(join(dir, 'apps', 'cli'), { recursive: true });
  symlinkSync(dirname(BIN), join(dir, 'apps', 'cli', 'dist'), 'dir');
  const git = (...args: string[]) => sh('git', args, { cwd: dir });
  await git('init', '-q');
  await git('add', 'specs');
  await git('-c', 'user.name=ci', '-c', 'user.email=ci@example.invalid', 'commit', '-qm', 'specs');
  return dir;
}

let sb: Sandbox;
let upstream: StrictUpstream;
const dirs: string[] = [];
beforeAll(async () => {
  sb = await startSandbox();
  upstream = await startStrictUpstream();
});
afterAll(async () => {
  await sb.close();
  await upstream.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the nightly verify workflow of docs/workflows', () => {
  it('against a healthy environment (the sandbox): uploads the SARIF, opens no pull request, and passes', async () => {
    const dir = await checkout();
    dirs.push(dir);
    const { credentials: c, urls } = sb;
    const run = await runWorkflow(dir, {
      UAT_PACE: 'gold',
      UAT_TOKEN_URL: urls.tokenUrl,
      UAT_EXPOSURE_BASE_URL: urls.exposure,
      UAT_EXPOSURE_CLIENT_ID: c.exposure.clientId,
      UAT_EXPOSURE_CLIENT_SECRET: c.exposure.clientSecret,
      UAT_EXPOSURE_SUBSCRIPTION_KEY: c.exposure.subscriptionKeys.primary,
      UAT_RISKENGINEERING_BASE_URL: urls.riskEngineering,
      UAT_RISKENGINEERING_CLIENT_ID: c.riskEngineering.clientId,
      UAT_RISKENGINEERING_CLIENT_SECRET: c.riskEngineering.clientSecret,
      UAT_RISKENGINEERING_SUBSCRIPTION_KEY: c.riskEngineering.subscriptionKeys.primary,
      UAT_LIABILITY_BASE_URL: urls.liability,
      UAT_LIABILITY_CLIENT_ID: c.liability.clientId,
      UAT_LIABILITY_CLIENT_SECRET: c.liability.clientSecret,
      UAT_APPROVALS_BASE_URL: urls.approvals,
      UAT_APPROVALS_CLIENT_ID: c.approvals.clientId,
      UAT_APPROVALS_CLIENT_SECRET: c.approvals.clientSecret,
      UAT_APPROVALS_TIER: 'gold',
      UAT_EMPLOYEE: sb.fixtures.employeeWithApprovals,
    });
    expect(run.outputs.verify).toEqual({ code: '0', edited: 'false' });
    expect(run.sarif?.version).toBe('2.1.0');
    expect(run.sarif?.runs[0]!.results).toEqual([]);
    expect(run.pullRequest).toBeUndefined();
    expect(run.failed).toBe(false);
  }, 180_000);

  it('against an environment that contradicts guesses: uploads the results, opens a pull request with the spec edits, and fails', async () => {
    const dir = await checkout();
    dirs.push(dir);
    const { exposure, riskEngineering, approvals } = upstream.credentials;
    const run = await runWorkflow(dir, {
      UAT_PACE: 'gold',
      UAT_TOKEN_URL: upstream.urls.tokenUrl,
      UAT_EXPOSURE_BASE_URL: upstream.urls.exposure,
      UAT_EXPOSURE_CLIENT_ID: exposure.clientId,
      UAT_EXPOSURE_CLIENT_SECRET: exposure.clientSecret,
      UAT_EXPOSURE_SUBSCRIPTION_KEY: exposure.subscriptionKeys.primary,
      UAT_RISKENGINEERING_BASE_URL: upstream.urls.riskEngineering,
      UAT_RISKENGINEERING_CLIENT_ID: riskEngineering.clientId,
      UAT_RISKENGINEERING_CLIENT_SECRET: riskEngineering.clientSecret,
      UAT_RISKENGINEERING_SUBSCRIPTION_KEY: riskEngineering.subscriptionKeys.primary,
      UAT_APPROVALS_BASE_URL: upstream.urls.approvals,
      UAT_APPROVALS_CLIENT_ID: approvals.clientId,
      UAT_APPROVALS_CLIENT_SECRET: approvals.clientSecret,
      UAT_APPROVALS_TIER: 'gold',
      UAT_EMPLOYEE: upstream.fixtures.employeeNumber,
    });
    expect(run.outputs.verify?.edited).toBe('true');
    expect(run.sarif?.runs[0]!.results.length).toBeGreaterThan(0);
    expect(run.pullRequest?.with.branch).toBe('verify/uat-spec-edits');
    expect(run.pullRequest?.changed).toContain('specs/common/openapi.yaml');
    expect(readFileSync(join(dir, 'verify-pull-request.md'), 'utf8')).toContain(
      'specs/common/openapi.yaml',
    );
    expect(run.failed).toBe(true);
  }, 180_000);
});
