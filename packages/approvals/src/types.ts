import type { components } from './generated/openapi.js';

type ApprovalsResultSchema = components['schemas']['ApprovalsResult'];
/** The approvals result: the employee and the four groups of outstanding approvals. */
export interface ApprovalsResult extends ApprovalsResultSchema {}
type ApprovalItemSchema = components['schemas']['ApprovalItem'];
/** The fields every approval item has. */
export interface ApprovalItem extends ApprovalItemSchema {}
type RequisitionApprovalSchema = components['schemas']['RequisitionApproval'];
/** An outstanding approval of a requisition, with its `requisitionDetails`. */
export interface RequisitionApproval extends RequisitionApprovalSchema {}
type InvoiceApprovalSchema = components['schemas']['InvoiceApproval'];
/** An outstanding approval of an invoice, with its `invoiceDetails`. */
export interface InvoiceApproval extends InvoiceApprovalSchema {}
type ExpenseReportApprovalSchema = components['schemas']['ExpenseReportApproval'];
/** An outstanding approval of an expense report, with its `expenseReportDetails`. */
export interface ExpenseReportApproval extends ExpenseReportApprovalSchema {}
type ContractApprovalSchema = components['schemas']['ContractApproval'];
/** An outstanding approval of a contract, with its `contractDetails`. */
export interface ContractApproval extends ContractApprovalSchema {}
type ApprovalCommentSchema = components['schemas']['Comment'];
/** A comment on a procurement object. */
export interface ApprovalComment extends ApprovalCommentSchema {}
type ApprovalsErrorBodySchema = components['schemas']['ApprovalsErrorBody'];
/** The common error body, with the approvals service's error codes. */
export interface ApprovalsErrorBody extends ApprovalsErrorBodySchema {}
/** An error code the approvals service lists. */
export type ApprovalsErrorCode = components['schemas']['ErrorCode'];
