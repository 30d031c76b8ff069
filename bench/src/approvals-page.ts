/**
 * A realistic approvals result of about 12 kB: the page B1 requests. Deterministic, so every
 * run and every client parses the same bytes.
 */
export function approvalsPage(): string {
  const comment = (i: number) => ({
    comment: `Checked against the framework agreement, line ${i}.`,
    createdBy: 'Jonas Weber',
    createdDate: '2026-11-04T09:12:00+01:00',
  });
  const item = (i: number) => ({
    approvableId: 410000 + i,
    approvableType: 'Requisition',
    approvalReason: 'Amount above the approval limit of the cost centre',
    approvalStatus: 'pending_approval',
    approvalId: 990000 + i,
    approvalCreatedDate: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T14:05:00+01:00`,
    approvalNote: 'Please approve before the end of the month.',
    approvalType: 'User',
  });
  const page = {
    employeeNumber: '100234',
    userId: 4711,
    userFullname: 'Amara Okafor',
    requisitionApprovals: Array.from({ length: 6 }, (_, i) => ({
      ...item(i),
      requisitionDetails: {
        url: `https://procurement.example.com/requisitions/${410000 + i}`,
        status: 'pending_approval',
        requestedBy: 'Lena Fischer',
        requestedByUserType: 'Employee',
        requisitionTitle: `Office chairs for the Zurich office, batch ${i}`,
        requisitionSupplier: 'Contoso Office Supplies AG',
        requisitionTotal: `${1200 + i * 37}.50`,
        requisitionLineCount: 3 + (i % 5),
        requisitionJustification: 'Replacement of worn-out chairs after the ergonomics review.',
        comments: [comment(i)],
      },
    })),
    invoiceApprovals: Array.from({ length: 5 }, (_, i) => ({
      ...item(100 + i),
      approvableType: 'Invoice',
      invoiceDetails: {
        url: `https://procurement.example.com/invoices/${520000 + i}`,
        status: 'pending_approval',
        createdBy: 'Marco Rossi',
        createdByUserType: 'Employee',
        invoiceNumber: `INV-2026-${String(8000 + i)}`,
        invoiceSupplier: 'Fabrikam Facility Services GmbH',
        invoiceGrossTotal: `${5400 + i * 113}.20`,
        invoiceLineCount: 2 + (i % 4),
        comments: [comment(100 + i)],
      },
    })),
    expenseReportApprovals: Array.from({ length: 3 }, (_, i) => ({
      ...item(200 + i),
      approvableType: 'ExpenseReport',
      expenseReportDetails: {
        url: `https://procurement.example.com/expense-reports/${630000 + i}`,
        status: 'pending_approval',
        expensedBy: 'Sofia Lindqvist',
        expensedByUserType: 'Employee',
        expenseReportTitle: `Client visit Lyon, week ${40 + i}`,
        expenseReportTotal: `${380 + i * 21}.90`,
        expenseReportScore: 12 + i,
        expenseReportLineCount: 4 + i,
        comments: [],
      },
    })),
    contractApprovals: Array.from({ length: 2 }, (_, i) => ({
      ...item(300 + i),
      approvableType: 'Contract',
      contractDetails: {
        url: `https://procurement.example.com/contracts/${740000 + i}`,
        status: 'pending_approval',
        createdBy: 'Amara Okafor',
        createdByUserType: 'Employee',
        contractNumber: `CTR-2026-${String(190 + i).padStart(4, '0')}`,
        contractName: `Facility management, site ${i + 1}`,
        contractSupplier: 'Northwind Building Services',
        contactStartDate: '2027-01-01T00:00:00+01:00',
        contactEndDate: '2029-12-31T23:59:59+01:00',
      },
    })),
  };
  return JSON.stringify(page);
}
