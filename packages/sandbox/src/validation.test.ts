import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCATIONS_PATH, getApprovals, liabilityHeaders, portalGet } from './sandbox.fixture.js';
import { startSandbox, type Sandbox } from './index.js';

interface ErrorBody {
  code: string;
  message: string;
  correlationId: string;
  causes?: { code?: string; message: string; field?: string }[];
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
afterEach(() => {
  sb.clearFaults();
  // Every answer of the sandbox itself kept to the specs.
  expect(sb.stats().responseViolations).toEqual([]);
});

async function expectInvalid(response: Response, status = 400): Promise<ErrorBody> {
  expect(response.status).toBe(status);
  const body = (await response.json()) as ErrorBody;
  expect(body.correlationId).toMatch(/^[0-9a-f-]{36}$/);
  return body;
}

async function createSeller(): Promise<string> {
  const response = await fetch(`${sb.urls.liability}/parties/sellers`, {
    method: 'POST',
    headers: liabilityHeaders(sb),
    body: JSON.stringify({ name: 'Nordlicht Home GmbH', address: { country: 'DE' } }),
  });
  return ((await response.json()) as { sellerId: string }).sellerId;
}

describe('a request that violates the spec', () => {
  it('gets 400 data_validation with a cause pointing at each bad query parameter', async () => {
    const body = await expectInvalid(
      await portalGet(
        sb,
        'exposure',
        `${LOCATIONS_PATH}?limit=2000&offset=-1&modifiedSince=2025-13-45`,
      ),
    );
    expect(body.code).toBe('data_validation');
    expect(body.causes).toEqual([
      {
        code: 'format',
        message: expect.stringContaining('modifiedSince'),
        field: '/modifiedSince',
      },
      { code: 'maximum', message: 'limit must be <= 1024', field: '/limit' },
      { code: 'minimum', message: 'offset must be >= 0', field: '/offset' },
    ]);
  });

  it('points at a missing query parameter and a missing header', async () => {
    const response = await fetch(`${sb.urls.approvals}/approvals`, {
      headers: {
        client_id: sb.credentials.approvals.clientId,
        client_secret: sb.credentials.approvals.clientSecret,
      },
    });
    const body = await expectInvalid(response);
    expect(body.causes?.map((c) => c.field)).toEqual(['/employeeNumber', '/X-Z-Request-Id']);
  });

  it('points into the body: a wrong type deep in a list, and a missing property', async () => {
    const response = await fetch(`${sb.urls.liability}/quotes`, {
      method: 'POST',
      headers: liabilityHeaders(sb),
      body: JSON.stringify({
        productId: 'QuoteA3P',
        policyLines: [{ id: 7, declarativeQuestionAnswers: { countryOfSales: 'MARS' } }],
      }),
    });
    const body = await expectInvalid(response);
    expect(body.causes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'type', field: '/policyLines/0/id' }),
        expect.objectContaining({
          code: 'enum',
          field: '/policyLines/0/declarativeQuestionAnswers/countryOfSales',
        }),
        expect.objectContaining({ code: 'required', field: '/insureds' }),
      ]),
    );
  });

  it('points at the answers the liability policy line requires and at an unknown seller', async () => {
    const sellerId = await createSeller();
    const quote = (answers: Record<string, string>, insureds: { sellerId: string }[]) =>
      fetch(`${sb.urls.liability}/quotes`, {
        method: 'POST',
        headers: liabilityHeaders(sb),
        body: JSON.stringify({
          productId: 'QuoteA3P',
          policyLines: [{ id: 'liability', declarativeQuestionAnswers: answers }],
          insureds,
        }),
      });
    const unanswered = await expectInvalid(
      await quote({ countryOfSales: 'EU-ASIA' }, [{ sellerId }]),
    );
    expect(unanswered.causes?.map((c) => c.field)).toEqual([
      '/policyLines/0/declarativeQuestionAnswers/territoryOfSales',
    ]);
    const unknown = await expectInvalid(
      await quote({ countryOfSales: 'EU-ASIA', territoryOfSales: 'NON-US' }, [
        { sellerId },
        { sellerId: 'SEL-999999' },
      ]),
    );
    expect(unknown.causes?.map((c) => c.field)).toEqual(['/insureds/1/sellerId']);
  });

  it('gets 400 with a cause at the whole body for JSON that does not parse', async () => {
    const response = await fetch(`${sb.urls.liability}/parties/sellers`, {
      method: 'POST',
      headers: liabilityHeaders(sb),
      body: '{"name": ',
    });
    expect((await expectInvalid(response)).causes).toEqual([
      { code: 'parse', message: 'The request body is not valid JSON.', field: '' },
    ]);
  });

  it('gets 415 for a body in another media type and 406 for an Accept it cannot meet', async () => {
    const text = await fetch(`${sb.urls.liability}/parties/sellers`, {
      method: 'POST',
      headers: liabilityHeaders(sb, { 'content-type': 'text/plain' }),
      body: 'name=x',
    });
    expect((await expectInvalid(text, 415)).code).toBe('unsupported_media_type');
    const html = await fetch(`${sb.urls.liability}/quotes`, {
      headers: liabilityHeaders(sb, { accept: 'text/html' }),
    });
    expect((await expectInvalid(html, 406)).code).toBe('not_acceptable');
  });

  it('gets 404 for a path no spec has and 405 with Allow for a method the path lacks', async () => {
    expect((await expectInvalid(await fetch(`${sb.urls.approvals}/nothing`), 404)).code).toBe(
      'not_found',
    );
    const wrongMethod = await fetch(`${sb.urls.approvals}/approvals`, { method: 'DELETE' });
    expect(wrongMethod.headers.get('allow')).toBe('GET');
    expect((await expectInvalid(wrongMethod, 405)).code).toBe('method_not_allowed');
  });
});

describe('response validation', () => {
  it('replaces a forced response that breaks the spec with a 500 naming the problem', async () => {
    sb.fault('approvals.getApprovals', {
      sequence: [{ status: 200, body: { employeeNumber: '100234', userId: 'not-a-number' } }],
    });
    const body = await expectInvalid(await getApprovals(sb, '100234'), 500);
    expect(body.code).toBe('internal_server_error');
    expect(body.causes).toEqual([
      { code: 'type', message: 'userId must be integer', field: '/userId' },
    ]);
    const { responseViolations } = sb.stats();
    expect(responseViolations).toEqual([
      { route: 'approvals.getApprovals', status: 200, causes: body.causes },
    ]);
    sb.resetStats();
  });

  it('lets a forced response through that keeps to the spec', async () => {
    const result = {
      employeeNumber: '4711',
      userId: 1,
      userFullname: 'Test Person',
      requisitionApprovals: [],
      invoiceApprovals: [],
      expenseReportApprovals: [],
      contractApprovals: [],
    };
    sb.fault('approvals.getApprovals', { sequence: [{ status: 200, body: result }] });
    const response = await getApprovals(sb, '4711');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(result);
  });

  it('sends the wrong response as it is when validation is off', async () => {
    const loose = await startSandbox({
      validateResponses: false,
      faults: { 'approvals.getApprovals': { sequence: [{ status: 200, body: { userId: 'x' } }] } },
    });
    try {
      const response = await getApprovals(loose, '100234');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ userId: 'x' });
      expect(loose.stats().responseViolations).toEqual([]);
    } finally {
      await loose.close();
    }
  });
});
