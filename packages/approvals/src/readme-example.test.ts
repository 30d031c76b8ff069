// #region readme-example
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import {
  AuthenticationError,
  createApprovalsClient,
  flattenApprovals,
  type ApprovalEntry,
  type ApprovalsClient,
} from '@partner-apis/approvals';

let sb: Sandbox;
let client: ApprovalsClient;
beforeAll(async () => {
  sb = await startSandbox();
  client = createApprovalsClient({
    baseUrl: sb.urls.approvals, // your environment's address, ending in /v1
    credentials: sb.credentials.approvals, // { clientId, clientSecret } from the portal's e-mail
    tier: sb.credentials.approvals.tier, // your client application's tier, e.g. 'silver'
  });
});
afterAll(() => sb.close());

function title(approval: ApprovalEntry): string | undefined {
  switch (approval.kind) {
    case 'requisition':
      return approval.requisitionDetails?.requisitionTitle;
    case 'invoice':
      return approval.invoiceDetails?.invoiceNumber;
    case 'expenseReport':
      return approval.expenseReportDetails?.expenseReportTitle;
    case 'contract':
      return approval.contractDetails?.contractName;
  }
}

test('the outstanding approvals of one employee, oldest first', async () => {
  const result = await client.approvals.list(sb.fixtures.employeeWithApprovals);
  expect(result.employeeNumber).toBe(sb.fixtures.employeeWithApprovals);

  const lines = flattenApprovals(result).map(
    (approval) => `${approval.approvalCreatedDate} ${approval.kind}: ${title(approval)}`,
  );
  expect(lines[0]).toMatch(/^\d{4}-\d{2}-\d{2}T.* (requisition|invoice|expenseReport|contract): /);
});

test('failures are typed errors', async () => {
  const stranger = createApprovalsClient({
    baseUrl: sb.urls.approvals,
    credentials: { clientId: 'someone-else', clientSecret: 'not-the-secret' },
  });
  const error = await stranger.approvals.list('100234').catch((e) => e);
  expect(error).toBeInstanceOf(AuthenticationError);
  expect(error.correlationId).toBeTruthy();
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
