import {
  flattenApprovals,
  type ApprovalEntry,
  type ApprovalsResult,
} from '@partner-apis/approvals';
import { Option } from 'commander';
import type { CommandContext } from '../command-context.js';
import { writeRecords } from '../output/record-writer.js';
import { visibleText } from '../output/safe-text.js';
import type { OperationExtension } from './operation-extension.js';
import type { Convenience } from './operations.js';

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
 * What the command line adds to the approvals service: `--tier` and the list of
 * `approvals approvals list`, and the client of the tier chosen.
 */
export function approvalsConvenience(context: CommandContext): Convenience {
  return {
    examples: ['partner-apis approvals approvals list --employee-number 100234'],
    extensions: approvalsExtensions(context),
    client: async (session, options) =>
      (await import('../clients.js')).approvalsClient(session, options.tier as Tier | undefined),
  };
}
