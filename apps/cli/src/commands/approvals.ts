import {
  flattenApprovals,
  type ApprovalEntry,
  type ApprovalsResult,
} from '@partner-apis/approvals';
import { Option, type Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { examples } from '../help-format.js';
import { writeRecords } from '../output/record-writer.js';
import { visibleText } from '../output/safe-text.js';
import type { OperationExtension } from './operation-extension.js';

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

/** The tiers of the approvals API, and their pace. */
export type Tier = 'bronze' | 'silver' | 'gold';

/**
 * The convenience of `approvals approvals list`: `--tier`, and the four groups of the answer
 * as one list, oldest first; the table shows a summary under a line naming the employee.
 *
 * @example
 * registerOperationCommands(program, context); // with approvalsExtensions(context) in its services
 */
export function approvalsExtensions(context: CommandContext): Record<string, OperationExtension> {
  return {
    'approvals.list': {
      examples: [
        'partner-apis approvals approvals list --employee-number 100234 --tier silver -o json',
      ],
      notes: [
        'Requisitions, invoices, expense reports and contracts as one list, oldest first, each with its kind; the table shows a summary, the other formats every field.',
      ],
      configure(command) {
        command.addOption(
          new Option(
            '--tier <tier>',
            "the client's tier (calls per second: bronze 1, silver 10, gold 100)",
          ).choices(['bronze', 'silver', 'gold']),
        );
      },
      async write(answer, options) {
        const result = answer as ApprovalsResult;
        const all = flattenApprovals(result);
        const entries = options.limit === undefined ? all : all.slice(0, options.limit);
        const writeOptions = context.writeOptions(options);
        const summary =
          options.format === 'table' &&
          options.columns === undefined &&
          options.query === undefined;
        const sink = await context.output(options);
        if (summary && writeOptions.plain !== true) {
          const employee = result.employeeNumber ?? String(options.employeeNumber);
          await sink.write(
            visibleText(
              `${result.userFullname ?? 'Employee'} (${employee}): ${all.length} outstanding approval${all.length === 1 ? '' : 's'}`,
            ) + '\n\n',
          );
        }
        await writeRecords(
          entries.map((entry) => (summary ? approvalSummary(entry) : { ...entry })),
          options.format,
          sink,
          { ...writeOptions, ...(summary ? { defaultColumns: SUMMARY_COLUMNS } : {}) },
        );
        await sink.close();
      },
    },
  };
}

/**
 * `partner-apis approvals`: its help; its command is the operation's (`operations.ts`),
 * `approvals approvals list` with its convenience.
 *
 * @example
 * registerApprovalsCommands(program);
 */
export function registerApprovalsCommands(program: Command): void {
  program
    .command('approvals')
    .description('procurement approvals outstanding for an employee')
    .addHelpText(
      'after',
      examples(['partner-apis approvals approvals list --employee-number 100234']),
    );
}
