import { SeededRandom, hashString } from './random.js';
import {
  APPROVAL_NOTES,
  APPROVAL_REASONS,
  COMMENTS,
  CONTRACT_NAMES,
  EXPENSE_TITLES,
  FIRST_NAMES,
  LAST_NAMES,
  REQUISITION_TITLES,
  SUPPLIERS,
} from './words.js';

const APPROVALS_STREAM = 3;
const PROCUREMENT_URL = 'https://procurement.sandbox.invalid';
// Approvals were created in the twelve months before this moment (a fixed one, for determinism).
const LATEST_CREATED_MS = Date.parse('2025-12-31T17:00:00Z');
const YEAR_MS = 365 * 86_400_000;

function timestamp(ms: number): string {
  // The documents show timestamps with an offset; the sandbox uses Central European Time.
  return `${new Date(ms + 3_600_000).toISOString().slice(0, 19)}+01:00`;
}

function person(random: SeededRandom): string {
  return `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
}

function decimal(random: SeededRandom, min: number, max: number): string {
  return (random.int(min * 100, max * 100) / 100).toFixed(2);
}

function comments(random: SeededRandom, createdMs: number) {
  const count = random.int(0, 2);
  return Array.from({ length: count }, (_, i) => ({
    comment: random.pick(COMMENTS),
    createdBy: person(random),
    createdDate: timestamp(createdMs - (i + 1) * 3_600_000),
  }));
}

function common(random: SeededRandom, approvableType: string, approvableId: number) {
  const createdMs = LATEST_CREATED_MS - Math.floor(random.next() * YEAR_MS);
  return {
    createdMs,
    item: {
      approvableId,
      approvableType,
      approvalReason: random.pick(APPROVAL_REASONS),
      approvalStatus: 'pending',
      approvalId: random.int(900_000, 999_999),
      approvalCreatedDate: timestamp(createdMs),
      approvalNote: random.pick(APPROVAL_NOTES),
      approvalType: 'approval',
    },
  };
}

/**
 * The outstanding approvals of one employee, the same for the same seed and employee number.
 * Employees listed in `nothingOutstanding` get four empty lists.
 *
 * @example
 * approvalsOf(42, '100234', new Set(['100777'])).requisitionApprovals.length; // 1…3
 */
export function approvalsOf(
  seed: number,
  employeeNumber: string,
  nothingOutstanding: ReadonlySet<string>,
) {
  const random = new SeededRandom().reset(seed, APPROVALS_STREAM, hashString(employeeNumber));
  const empty = nothingOutstanding.has(employeeNumber);
  // Everyone else has at least one approval of each kind, so every list can be tested.
  const count = () => (empty ? 0 : random.int(1, 3));
  const requisitions = count();
  const invoices = count();
  const expenseReports = count();
  const contracts = count();
  return {
    employeeNumber,
    userId: random.int(1000, 99_999),
    userFullname: person(random),
    requisitionApprovals: Array.from({ length: requisitions }, () => {
      const id = random.int(10_000, 99_999);
      const { createdMs, item } = common(random, 'Requisition', id);
      return {
        ...item,
        requisitionDetails: {
          url: `${PROCUREMENT_URL}/requisitions/${id}`,
          status: 'pending_approval',
          requestedBy: person(random),
          requestedByUserType: 'employee',
          requisitionTitle: random.pick(REQUISITION_TITLES),
          requisitionSupplier: random.pick(SUPPLIERS),
          requisitionTotal: decimal(random, 100, 50_000),
          requisitionLineCount: random.int(1, 20),
          requisitionJustification: 'Budgeted for this year.',
          comments: comments(random, createdMs),
        },
      };
    }),
    invoiceApprovals: Array.from({ length: invoices }, () => {
      const id = random.int(10_000, 99_999);
      const { createdMs, item } = common(random, 'InvoiceHeader', id);
      return {
        ...item,
        invoiceDetails: {
          url: `${PROCUREMENT_URL}/invoices/${id}`,
          status: 'pending_approval',
          createdBy: 'Accounts Payable',
          createdByUserType: 'employee',
          invoiceNumber: `INV-2025-${random.int(1000, 9999)}`,
          invoiceSupplier: random.pick(SUPPLIERS),
          invoiceGrossTotal: decimal(random, 50, 80_000),
          invoiceLineCount: random.int(1, 12),
          comments: comments(random, createdMs),
        },
      };
    }),
    expenseReportApprovals: Array.from({ length: expenseReports }, () => {
      const id = random.int(10_000, 99_999);
      const { createdMs, item } = common(random, 'ExpenseReport', id);
      return {
        ...item,
        expenseReportDetails: {
          url: `${PROCUREMENT_URL}/expense_reports/${id}`,
          status: 'pending_approval',
          expensedBy: person(random),
          expensedByUserType: 'employee',
          expenseReportTitle: random.pick(EXPENSE_TITLES),
          expenseReportTotal: decimal(random, 20, 5_000),
          expenseReportScore: random.int(0, 5),
          expenseReportLineCount: random.int(1, 15),
          comments: comments(random, createdMs),
        },
      };
    }),
    contractApprovals: Array.from({ length: contracts }, () => {
      const id = random.int(10_000, 99_999);
      const { item } = common(random, 'Contract', id);
      const startYear = random.int(2026, 2027);
      return {
        ...item,
        contractDetails: {
          url: `${PROCUREMENT_URL}/contracts/${id}`,
          status: 'pending_approval',
          createdBy: 'Procurement Desk',
          createdByUserType: 'employee',
          contractNumber: `CTR-2025-${String(random.int(1, 9999)).padStart(4, '0')}`,
          contractName: `${random.pick(CONTRACT_NAMES)} ${startYear}-${startYear + 2}`,
          contractSupplier: random.pick(SUPPLIERS),
          contactStartDate: `${startYear}-01-01T00:00:00+01:00`,
          contactEndDate: `${startYear + 2}-12-31T23:59:59+01:00`,
        },
      };
    }),
  };
}
