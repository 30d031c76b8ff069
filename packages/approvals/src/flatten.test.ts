import { InvalidArgumentError } from '@partner-apis/errors';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { flattenApprovals, type ApprovalEntry, type ApprovalsResult } from './index.js';

const result: ApprovalsResult = {
  employeeNumber: '100234',
  requisitionApprovals: [
    { approvalId: 1, approvalCreatedDate: '2026-11-02T09:15:00+01:00' },
    { approvalId: 2, approvalCreatedDate: '2026-11-02T08:30:00Z' },
  ],
  invoiceApprovals: [{ approvalId: 3, approvalCreatedDate: '2026-11-02T08:10:00Z' }],
  expenseReportApprovals: [{ approvalId: 4 }],
  contractApprovals: [
    {
      approvalId: 5,
      approvalCreatedDate: '2026-11-02T10:00:00+02:00',
      contractDetails: { contractName: 'Facility management' },
    },
  ],
};

const order = (entries: ApprovalEntry[]) =>
  entries.map(({ approvalId, kind }) => [approvalId, kind]);

describe('flattenApprovals', () => {
  it('lists every approval once, oldest instant first (not oldest text), tagged with its kind', () => {
    expect(order(flattenApprovals(result))).toEqual([
      [5, 'contract'], // 08:00Z
      [3, 'invoice'], // 08:10Z
      [1, 'requisition'], // 08:15Z
      [2, 'requisition'], // 08:30Z
      [4, 'expenseReport'], // no date: last
    ]);
  });

  it('keeps the group order for equal instants and unreadable dates', () => {
    const same = '2026-11-02T08:00:00Z';
    const ties: ApprovalsResult = {
      contractApprovals: [{ approvalId: 1, approvalCreatedDate: same }],
      requisitionApprovals: [
        { approvalId: 2, approvalCreatedDate: 'soon' },
        { approvalId: 3, approvalCreatedDate: '2026-11-02T09:00:00+01:00' },
      ],
      invoiceApprovals: [{ approvalId: 4 }],
    };
    expect(order(flattenApprovals(ties))).toEqual([
      [3, 'requisition'],
      [1, 'contract'],
      [2, 'requisition'],
      [4, 'invoice'],
    ]);
  });

  it('copies the items and leaves the result as it was', () => {
    const before = structuredClone(result);
    const [first] = flattenApprovals(result);
    expect(first).toEqual({ ...result.contractApprovals?.[0], kind: 'contract' });
    expect(first).not.toBe(result.contractApprovals?.[0]);
    expect(result).toEqual(before);
  });

  it('gives an empty list for missing or empty groups', () => {
    expect(flattenApprovals({})).toEqual([]);
    expect(flattenApprovals({ invoiceApprovals: [] })).toEqual([]);
  });

  it.each([
    [null, 'result'],
    ['100234', 'result'],
    [[], 'result'],
    [{ invoiceApprovals: {} }, 'result.invoiceApprovals'],
  ])('refuses %j, naming %s', (input, argument) => {
    const call = () => flattenApprovals(input as never);
    expect(call).toThrow(InvalidArgumentError);
    expect(call).toThrow(`flattenApprovals: ${argument} `);
  });

  it('narrows the details by kind', () => {
    const [entry] = flattenApprovals(result);
    if (entry?.kind === 'contract') {
      expectTypeOf(entry.contractDetails).toEqualTypeOf<
        NonNullable<ApprovalsResult['contractApprovals']>[number]['contractDetails']
      >();
      // @ts-expect-error a contract approval has no invoice details
      void entry.invoiceDetails;
    }
    expect(entry?.kind).toBe('contract');
  });
});
