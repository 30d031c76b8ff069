import type { components } from './generated/openapi.js';

/** The approvals result: the employee and the four groups of outstanding approvals. */
export type ApprovalsResult = components['schemas']['ApprovalsResult'];
/** The fields every approval item has. */
export type ApprovalItem = components['schemas']['ApprovalItem'];
/** An outstanding approval of a requisition, with its `requisitionDetails`. */
export type RequisitionApproval = components['schemas']['RequisitionApproval'];
/** An outstanding approval of an invoice, with its `invoiceDetails`. */
export type InvoiceApproval = components['schemas']['InvoiceApproval'];
/** An outstanding approval of an expense report, with its `expenseReportDetails`. */
export type ExpenseReportApproval = components['schemas']['ExpenseReportApproval'];
/** An outstanding approval of a contract, with its `contractDetails`. */
export type ContractApproval = components['schemas']['ContractApproval'];
/** A comment on a procurement object. */
export type ApprovalComment = components['schemas']['Comment'];
/** The common error body, with the approvals service's error codes. */
export type ApprovalsErrorBody = components['schemas']['ApprovalsErrorBody'];
/** An error code the approvals service lists. */
export type ApprovalsErrorCode = components['schemas']['ErrorCode'];
