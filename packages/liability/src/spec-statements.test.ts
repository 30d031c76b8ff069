import {
  hostile,
  startHostileUpstream,
  startPrismProxy,
  type HostileUpstream,
  type PrismProxy,
} from '@partner-apis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Three statements of the liability document, judged by Stoplight Prism against the spec
// (`prism proxy --errors` in front of an upstream that answers as each test tells it).

const BASE = '/liability/v1/uat';
const headers = {
  authorization: `Basic ${Buffer.from('client-7f3a:s3cr3t').toString('base64')}`,
  'content-type': 'application/json',
  'x-z-conversation-id': '3f1c2a9e-0000-4000-8000-000000000001',
  'x-z-request-id': '3f1c2a9e-0000-4000-8000-000000000002',
};

const request = (answers: Record<string, string>) => ({
  productId: 'QuoteA3P',
  policyLines: [{ id: 'liability', declarativeQuestionAnswers: answers }],
  insureds: [{ sellerId: 'SEL-000731' }],
});
const ANSWERS = { countryOfSales: 'EU-ASIA', territoryOfSales: 'NON-US' };
const PRICE = { amount: '1240.00', currency: 'EUR' };
const quote = (extra: object) => ({
  quoteId: 'QTE-2026-0000001',
  status: 'quoted',
  ...request(ANSWERS),
  ...extra,
});

let upstream: HostileUpstream;
let prism: PrismProxy;

beforeAll(async () => {
  upstream = await startHostileUpstream({});
  prism = await startPrismProxy('liability', `${upstream.url}${BASE}`);
}, 90_000);

afterAll(async () => {
  await prism?.close();
  await upstream?.close();
});

/** POSTs a quote request through Prism to an upstream answering `status` and `body`. */
async function createQuote(body: unknown, status: number, answer: unknown) {
  upstream.setRoutes({ [`${BASE}/quotes`]: hostile.json(answer, status) });
  const before = upstream.requests.length;
  const response = await fetch(`${prism.url}/quotes`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, forwarded: upstream.requests.length > before };
}

describe('Declarative questions required for the liability policy line', () => {
  it('a request whose liability line answers nothing is refused, and never forwarded', async () => {
    const refused = await createQuote(request({}), 201, quote({ price: PRICE }));
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('countryOfSales');
    expect(refused.forwarded).toBe(false);
    const partial = await createQuote(
      request({ countryOfSales: 'EU-ASIA' }),
      201,
      quote({ price: PRICE }),
    );
    expect(partial.status).toBe(422);
    expect(partial.text).toContain('territoryOfSales');
  });

  it('a request that answers both questions goes through', async () => {
    const answered = await createQuote(request(ANSWERS), 201, quote({ price: PRICE }));
    expect(answered).toMatchObject({ status: 201, forwarded: true });
  });
});

describe('A quote request returns a valid price', () => {
  it('a created quote without a price breaks the spec; a referred one with a price fits', async () => {
    const { status, text } = await createQuote(request(ANSWERS), 201, quote({}));
    expect(status).toBe(500);
    expect(text).toContain('VIOLATIONS');
    expect(text).toContain('price');
    const referred = quote({
      status: 'referred',
      price: PRICE,
      referrals: [{ code: 'MANUAL_REFERRAL_REQUESTED', reason: 'Requested by the broker.' }],
    });
    expect(await createQuote(request(ANSWERS), 201, referred)).toMatchObject({ status: 201 });
  });
});

describe('2xx success, 4xx request failure, 5xx server failure', () => {
  it.each([504, 507])('a %i with the common error body fits the spec', async (status) => {
    const from = prism.log.length;
    const body = { code: 'gateway_timeout', message: 'No answer in time.', correlationId: 'c-1' };
    const answer = await createQuote(request(ANSWERS), status, body);
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.text)).toEqual(body);
    // Prism only warns of an undeclared status; once the next request is logged, it has
    // said all it had to say of this one.
    await createQuote(request(ANSWERS), 201, quote({ price: PRICE }));
    await expect
      .poll(() => prism.log.slice(from).some((line) => line.includes('has returned 201')))
      .toBe(true);
    const warnings = prism.log.slice(from).filter((line) => line.includes('Unable to match'));
    expect(warnings).toEqual([]);
  });
});
