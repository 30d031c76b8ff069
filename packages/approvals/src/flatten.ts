import { InvalidArgumentError } from '@partner-apis/errors';
import type {
  ApprovalsResult,
  ContractApproval,
  ExpenseReportApproval,
  InvoiceApproval,
  RequisitionApproval,
} from './generated/resources.js';

/** Which group of the approvals result an approval came from. */
export type ApprovalKind = 'requisition' | 'invoice' | 'expenseReport' | 'contract';

/** One approval of any group, tagged with its `kind` so its details can be narrowed. */
export type ApprovalEntry =
  | (RequisitionApproval & { kind: 'requisition' })
  | (InvoiceApproval & { kind: 'invoice' })
  | (ExpenseReportApproval & { kind: 'expenseReport' })
  | (ContractApproval & { kind: 'contract' });

const GROUPS: ReadonlyArray<readonly [keyof ApprovalsResult, ApprovalKind]> = [
  ['requisitionApprovals', 'requisition'],
  ['invoiceApprovals', 'invoice'],
  ['expenseReportApprovals', 'expenseReport'],
  ['contractApprovals', 'contract'],
];

const OPERATION = 'flattenApprovals';

/**
 * The four groups of an approvals result as one list, oldest `approvalCreatedDate` first (the
 * timestamps carry offsets, so they are compared as instants). Each item is a copy tagged with
 * its `kind`; items without a readable date come last, in their group order.
 *
 * @example
 * const result = await client.approvals.list('100234');
 * for (const approval of flattenApprovals(result)) {
 *   if (approval.kind === 'contract') console.log(approval.contractDetails?.contractName);
 *   else console.log(approval.kind, approval.approvalId, approval.approvalCreatedDate);
 * }
 */
export function flattenApprovals(result: ApprovalsResult): ApprovalEntry[] {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    throw new InvalidArgumentError('result', 'must be an approvals result object', OPERATION);
  }
  const keyed: Array<{ at: number; entry: ApprovalEntry }> = [];
  for (const [group, kind] of GROUPS) {
    const items: unknown = result[group];
    if (items === undefined) continue;
    if (!Array.isArray(items)) {
      throw new InvalidArgumentError(`result.${group}`, 'must be an array', OPERATION);
    }
    for (const item of items as Array<{ approvalCreatedDate?: unknown }>) {
      const date = item?.approvalCreatedDate;
      const at = typeof date === 'string' ? Date.parse(date) : Number.NaN;
      const entry = { ...item, kind } as ApprovalEntry;
      keyed.push({ at: Number.isNaN(at) ? Number.POSITIVE_INFINITY : at, entry });
    }
  }
  // Array.prototype.sort is stable, so equal instants keep their group order.
  keyed.sort((a, b) => (a.at === b.at ? 0 : a.at < b.at ? -1 : 1));
  return keyed.map(({ entry }) => entry);
}
