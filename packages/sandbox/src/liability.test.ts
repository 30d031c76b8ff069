import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { liabilityHeaders } from './sandbox.fixture.js';
import { startSandbox, type Sandbox } from './index.js';

type Quote = Record<string, unknown> & { quoteId: string; status: string; createdAt: string };

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
afterEach(() => expect(sb.stats().responseViolations).toEqual([]));

async function post(path: string, body: unknown, headers = liabilityHeaders(sb)) {
  return fetch(`${sb.urls.liability}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
}

async function get(path: string, headers = liabilityHeaders(sb)) {
  return fetch(`${sb.urls.liability}${path}`, { headers });
}

async function createSeller(name = 'Nordlicht Home GmbH'): Promise<string> {
  const response = await post('/parties/sellers', { name, address: { country: 'DE' } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { sellerId: string }).sellerId;
}

function quoteRequest(
  sellerId: string,
  answers: { countryOfSales: string; territoryOfSales: string } = {
    countryOfSales: 'EU-ASIA',
    territoryOfSales: 'NON-US',
  },
  forceManualReferral?: boolean,
) {
  return {
    productId: 'QuoteA3P',
    policyLines: [{ id: 'liability', declarativeQuestionAnswers: answers }],
    insureds: [{ sellerId }],
    ...(forceManualReferral === undefined
      ? {}
      : { underwritingInformation: { forceManualReferral } }),
  };
}

async function createQuote(request: unknown): Promise<Quote> {
  const response = await post('/quotes', request);
  expect(response.status).toBe(201);
  return (await response.json()) as Quote;
}

describe('sellers and quotes', () => {
  it('stores a seller and answers it with its new sellerId', async () => {
    const seller = {
      name: 'Harbour Street Goods Ltd',
      address: { street: '1 Quay Street', city: 'Dublin', country: 'IE' },
      marketplaces: [{ name: 'Amazon', storeUrl: 'https://www.amazon.ie/sp?seller=HSG' }],
    };
    const response = await post('/parties/sellers', seller);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      ...seller,
      sellerId: expect.stringMatching(/^SEL-\d{6}$/),
    });
  });

  it('prices a quote that needs no referral', async () => {
    const quote = await createQuote(quoteRequest(await createSeller()));
    expect(quote).toMatchObject({
      quoteId: expect.stringMatching(/^QTE-\d{4}-\d{7}$/),
      status: 'quoted',
      price: { amount: '1240.00', currency: 'EUR' },
      referrals: [],
      productId: 'QuoteA3P',
    });
    expect(Date.parse(quote.createdAt)).not.toBeNaN();
  });

  it('refers a quote that is forced into manual referral, and still prices it', async () => {
    const quote = await createQuote(quoteRequest(await createSeller(), undefined, true));
    expect(quote.status).toBe('referred');
    // "A quote request returns a valid price for the product and indicates any referrals."
    expect(quote.price).toEqual({ amount: '1240.00', currency: 'EUR' });
    expect(quote.referrals).toEqual([
      { code: 'MANUAL_REFERRAL_REQUESTED', reason: expect.any(String) },
    ]);
  });

  it.each([
    [{ countryOfSales: 'EU-ASIA', territoryOfSales: 'US' }, 'US_TERRITORY_OF_SALES'],
    [{ countryOfSales: 'OTHERS', territoryOfSales: 'NON-US' }, 'OTHER_COUNTRIES_OF_SALES'],
  ])('refers a quote whose answers %o need an underwriter', async (answers, code) => {
    const quote = await createQuote(quoteRequest(await createSeller(), answers));
    expect(quote.status).toBe('referred');
    expect(quote.referrals).toEqual([{ code, reason: expect.any(String) }]);
    expect(quote.price).toEqual({ amount: expect.stringMatching(/^\d+\.\d{2}$/), currency: 'EUR' });
  });

  it('does not let a request choose its own quoteId', async () => {
    const quote = await createQuote({ ...quoteRequest(await createSeller()), quoteId: 'MINE' });
    expect(quote.quoteId).not.toBe('MINE');
  });

  it('reads a stored quote by quoteId and answers 404 for an unknown one', async () => {
    const quote = await createQuote(quoteRequest(await createSeller()));
    const found = await get(`/quotes/${quote.quoteId}`);
    expect(found.status).toBe(200);
    expect(await found.json()).toEqual(quote);
    const missing = await get('/quotes/QTE-2026-9999999');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      code: 'not_found',
      correlationId: expect.any(String),
    });
  });

  it('searches quotes by seller, product and creation time', async () => {
    const first = await createSeller('First seller');
    const second = await createSeller('Second seller');
    const a = await createQuote(quoteRequest(first));
    const b = await createQuote(quoteRequest(first, undefined, true));
    await createQuote(quoteRequest(second));

    const search = async (query: string) => {
      const response = await get(`/quotes?${query}`);
      expect(response.status).toBe(200);
      return ((await response.json()) as Quote[]).map((q) => q.quoteId);
    };
    expect(await search(`sellerId=${first}`)).toEqual([a.quoteId, b.quoteId]);
    expect(await search(`sellerId=${first}&productId=OtherProduct`)).toEqual([]);
    const past = '2000-01-01T00:00:00Z';
    expect(await search(`sellerId=${first}&createdTo=${past}`)).toEqual([]);
    expect(await search(`sellerId=${first}&createdFrom=${past}`)).toEqual([a.quoteId, b.quoteId]);
  });
});

describe('tracing headers', () => {
  it('refuses a reused X-Z-Request-Id, pointing at the header', async () => {
    const requestId = randomUUID();
    const headers = liabilityHeaders(sb, { 'x-z-request-id': requestId });
    expect((await get('/quotes', headers)).status).toBe(200);
    const reused = await post(
      '/parties/sellers',
      { name: 'x', address: { country: 'DE' } },
      headers,
    );
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({
      code: 'data_validation',
      causes: [{ code: 'duplicate', field: '/X-Z-Request-Id', message: expect.any(String) }],
    });
  });

  it('answers a body nested 100,000 deep with a 400 and the common error body', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const response = await fetch(`${sb.urls.liability}/parties/sellers`, {
      method: 'POST',
      headers: liabilityHeaders(sb),
      body: deep,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'data_validation',
      correlationId: expect.any(String),
      causes: [{ code: 'too_deep', field: '' }],
    });
  });

  it('requires X-Z-Conversation-Id', async () => {
    const headers: Record<string, string> = liabilityHeaders(sb);
    delete headers['x-z-conversation-id'];
    const response = await get('/quotes', headers);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      causes: [{ code: 'required', field: '/X-Z-Conversation-Id' }],
    });
  });
});
