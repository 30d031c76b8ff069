// #region readme-example
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import {
  exitCodeOf,
  formatFindings,
  formatJunit,
  formatSarif,
  verifyUpstream,
} from '@partner-apis/verify';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

test('which guesses of the specs hold in an environment', async () => {
  const { findings } = await verifyUpstream({
    exposure: {
      baseUrl: sb.urls.exposure, // your environment's {base_url}
      tokenUrl: sb.urls.tokenUrl, // {auth_url}/login/connect/token
      credentials: sb.credentials.exposure, // { clientId, clientSecret, subscriptionKeys }
      rateLimit: 'gold', // the sandbox has no limit; leave it out to call at the lowest tier
    },
    approvals: {
      baseUrl: sb.urls.approvals,
      credentials: sb.credentials.approvals,
      tier: sb.credentials.approvals.tier,
      employeeNumber: sb.fixtures.employeeWithApprovals, // lets it read one employee's approvals
    },
  });

  // One finding per pointer: its status, the spec and the JSON Pointer of the guess it tested.
  expect(formatFindings(findings)).toMatch(/^\d+ findings: 0 contradicted, 0 unobserved/);
  expect(findings).toContainEqual(
    expect.objectContaining({
      spec: 'common',
      pointer: '/components/parameters/Offset/x-upstream-gap',
      status: 'confirmed',
    }),
  );

  // For CI: the exit code a scheduler acts on, a JUnit report for the test view and a SARIF
  // log for code scanning (one result per contradicted guess, at its line of specs/).
  expect(exitCodeOf(findings)).toBe(0);
  expect(formatJunit(findings)).toContain('<testsuite name="specs/auth/openapi.yaml"');
  expect(JSON.parse(formatSarif(findings)).runs[0].results).toEqual([]);
});
// #endregion readme-example

// The README shows the example above verbatim, so it cannot rot.
import { readFileSync } from 'node:fs';

test('the README shows this example as it is', () => {
  const source = readFileSync(new URL('./readme-example.test.ts', import.meta.url), 'utf8');
  const example = /\/\/ #region readme-example\n([\s\S]*?)\/\/ #endregion/.exec(source)?.[1];
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  expect(example).toBeDefined();
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
});
