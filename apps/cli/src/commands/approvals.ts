import { flattenApprovals, type ApprovalEntry } from '@partner-apis/approvals';
import { Option, type Command } from 'commander';
import { approvalsClient } from '../clients.js';
import { withOutputOptions, type CommandContext, type OutputOptions } from '../command-context.js';
import { examples } from '../help-format.js';
import { writeRecords } from '../output/record-writer.js';
import { visibleText } from '../output/safe-text.js';

interface ApprovalsOptions extends OutputOptions {
  employee: string;
  tier?: 'bronze' | 'silver' | 'gold';
}

/** The columns of the summary table, in this order. */
export const SUMMARY_COLUMNS = [
  'created',
  'kind',
  'approvalId',
  'status',
  'subject',
  'total',
  'reason',
];

/**
 * The few fields of an approval a person scans first: when, what, which, status, subject, amount.
 *
 * @example
 * approvalSummary(entry); // → { created: '2025-05-28', kind: 'requisition', … }
 */
export function approvalSummary(entry: ApprovalEntry): Record<string, unknown> {
  const subject =
    entry.kind === 'requisition'
      ? entry.requisitionDetails?.requisitionTitle
      : entry.kind === 'invoice'
        ? entry.invoiceDetails?.invoiceNumber
        : entry.kind === 'expenseReport'
          ? entry.expenseReportDetails?.expenseReportTitle
          : entry.contractDetails?.contractName;
  const total =
    entry.kind === 'requisition'
      ? entry.requisitionDetails?.requisitionTotal
      : entry.kind === 'invoice'
        ? entry.invoiceDetails?.invoiceGrossTotal
        : entry.kind === 'expenseReport'
          ? entry.expenseReportDetails?.expenseReportTotal
          : undefined;
  return {
    // The day is what a person scans for; the time is in every other format.
    created: entry.approvalCreatedDate?.slice(0, 10),
    kind: entry.kind,
    approvalId: entry.approvalId,
    status: entry.approvalStatus,
    subject,
    total,
    reason: entry.approvalReason,
  };
}

/**
 * `partner-apis approvals list`: the outstanding approvals of one employee, as one list.
 *
 * @example
 * registerApprovalsCommands(program, context);
 */
export function registerApprovalsCommands(program: Command, context: CommandContext): void {
  const approvals = program
    .command('approvals')
    .description('procurement approvals outstanding for an employee')
    .addHelpText('after', examples(['partner-apis approvals list --employee 100234']));

  withOutputOptions(
    approvals
      .command('list')
      .description(
        'requisitions, invoices, expense reports and contracts awaiting the employee, oldest first; the table shows a summary, the other formats every field',
      )
      .requiredOption('--employee <number>', 'the employee number')
      .addOption(
        new Option(
          '--tier <tier>',
          "the client's tier (calls per second: bronze 1, silver 10, gold 100)",
        ).choices(['bronze', 'silver', 'gold']),
      )
      .addHelpText(
        'after',
        examples([
          'partner-apis approvals list --employee 100234',
          'partner-apis approvals list --employee 100234 --tier silver -o json',
        ]),
      ),
  ).action(async (options: ApprovalsOptions, command: Command) => {
    await context.run(command, async (session) => {
      const client = await approvalsClient(session, options.tier);
      const result = await client.approvals.list(options.employee);
      const entries = flattenApprovals(result);
      const summary = options.format === 'table' && options.columns === undefined;
      const sink = await context.output(options);
      if (options.format === 'table') {
        await sink.write(
          visibleText(
            `${result.userFullname ?? 'Employee'} (${result.employeeNumber ?? options.employee}): ${entries.length} outstanding approval${entries.length === 1 ? '' : 's'}`,
          ) + '\n\n',
        );
      }
      await writeRecords(
        entries.map((entry) => (summary ? approvalSummary(entry) : { ...entry })),
        options.format,
        sink,
        {
          ...context.writeOptions(options),
          ...(summary ? { defaultColumns: SUMMARY_COLUMNS } : {}),
        },
      );
      await sink.close();
    });
  });
}
