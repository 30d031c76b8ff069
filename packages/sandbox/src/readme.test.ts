// #region readme-example
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ seed: 7 });
});
afterAll(() => sb.close());

describe('my approvals integration', () => {
  const approvals = () =>
    fetch(`${sb.urls.approvals}/approvals?employeeNumber=${sb.fixtures.employeeWithApprovals}`, {
      headers: {
        client_id: sb.credentials.approvals.clientId,
        client_secret: sb.credentials.approvals.clientSecret,
        'X-Z-Request-Id': crypto.randomUUID(),
      },
    });

  test('reads the approvals of an employee', async () => {
    const response = await approvals();
    expect(response.status).toBe(200);
    const result = (await response.json()) as { contractApprovals: unknown[] };
    expect(result.contractApprovals.length).toBeGreaterThan(0);
  });

  test('survives two 503s from the service', async () => {
    sb.fault('approvals.getApprovals', { sequence: [503, 503] });
    expect((await approvals()).status).toBe(503);
    expect((await approvals()).status).toBe(503);
    expect((await approvals()).status).toBe(200);
    expect(sb.stats().routes['approvals.getApprovals']?.faults).toBe(2);
  });
});
// #endregion readme-example

// The README shows the example above verbatim, so it cannot rot.
import { readFileSync } from 'node:fs';

test('the README shows this example as it is', () => {
  const source = readFileSync(new URL('./readme.test.ts', import.meta.url), 'utf8');
  const example = /\/\/ #region readme-example\n([\s\S]*?)\/\/ #endregion/.exec(source)?.[1];
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  expect(example).toBeDefined();
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
});
