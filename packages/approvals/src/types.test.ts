import { describe, expectTypeOf, it } from 'vitest';
import {
  createApprovalsClient,
  flattenApprovals,
  type ApprovalEntry,
  type ApprovalKind,
  type ApprovalsClientOptions,
  type ApprovalsErrorCode,
  type ApprovalsRaw,
  type ApprovalsResult,
  type ApprovalsTier,
} from './index.js';

// These names are public: renaming one in the spec must break this file (checked by `tsc`).
describe('approvals types', () => {
  it('types contract dates as strings and refuses misspelled fields', () => {
    type Contract = NonNullable<ApprovalsResult['contractApprovals']>[number];
    type Details = NonNullable<Contract['contractDetails']>;
    expectTypeOf<Details['contactStartDate']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<NonNullable<ApprovalsResult['invoiceApprovals']>[number]['invoiceDetails']>()
      .exclude<undefined>()
      .toHaveProperty('invoiceGrossTotal')
      .toEqualTypeOf<string | undefined>();
    // @ts-expect-error the upstream spelling is contactStartDate
    type Misspelled = Details['contractStartDate'];
    expectTypeOf<Misspelled>().toBeAny();
  });

  it('lists the error codes of the service', () => {
    expectTypeOf<'authentication_error'>().toExtend<ApprovalsErrorCode>();
    expectTypeOf<'too_many_requests'>().not.toExtend<ApprovalsErrorCode>();
  });

  it('takes a tier by name or as a rate', () => {
    expectTypeOf<ApprovalsClientOptions['tier']>().toEqualTypeOf<ApprovalsTier | undefined>();
    expectTypeOf<'bronze' | 'silver' | 'gold'>().toExtend<ApprovalsTier>();
    expectTypeOf<{ requestsPerSecond: 5; burst: 2 }>().toExtend<ApprovalsTier>();
    expectTypeOf<'platinum'>().not.toExtend<ApprovalsTier>();
  });

  it('types the client calls and keeps getApprovals as the same call', () => {
    const client = createApprovalsClient({
      baseUrl: 'https://approvals.example.com/v1',
      credentials: { clientId: 'id', clientSecret: 'secret' },
      tier: 'gold',
    });
    expectTypeOf(client.approvals.list).returns.resolves.toEqualTypeOf<ApprovalsResult>();
    expectTypeOf(client.getApprovals).toEqualTypeOf(client.approvals.list);
    expectTypeOf(client.raw).toEqualTypeOf<ApprovalsRaw>();
    expectTypeOf(flattenApprovals).returns.toEqualTypeOf<ApprovalEntry[]>();
    expectTypeOf<ApprovalEntry['kind']>().toEqualTypeOf<ApprovalKind>();
    const typeErrors = () => {
      // @ts-expect-error the employee number is a string
      void client.approvals.list(100234);
      const credentials = { clientId: 'i', clientSecret: 's' };
      // @ts-expect-error platinum is not a tier
      createApprovalsClient({ baseUrl: 'https://a.example/v1', credentials, tier: 'platinum' });
      // @ts-expect-error raw calls still need the employee number
      void client.raw.GET('/approvals', { params: { query: {} } });
    };
    void typeErrors;
  });
});
