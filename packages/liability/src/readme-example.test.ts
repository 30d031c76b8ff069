// #region readme-example
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import {
  createLiabilityClient,
  NotFoundError,
  THIRD_PARTY_LIABILITY_PRODUCT,
  thirdPartyLiabilityPolicyLine,
  ValidationError,
  type LiabilityClient,
  type QuoteRequest,
} from '@partner-apis/liability';

let sb: Sandbox;
let liability: LiabilityClient;
beforeAll(async () => {
  sb = await startSandbox();
  liability = createLiabilityClient({
    baseUrl: sb.urls.liability, // your environment's address, e.g. https://…/v1/uat
    credentials: sb.credentials.liability, // { clientId, clientSecret } from the exchange portal
  });
});
afterAll(() => sb.close());

function liabilityQuote(sellerId: string): QuoteRequest {
  return {
    productId: THIRD_PARTY_LIABILITY_PRODUCT.productId,
    policyLines: [
      thirdPartyLiabilityPolicyLine({ countryOfSales: 'EU-ASIA', territoryOfSales: 'NON-US' }),
    ],
    insureds: [{ sellerId }],
  };
}

test('a seller, its quotes, and the quotes read back', async () => {
  // Every call of this flow carries the same X-Z-Conversation-Id.
  const flow = liability.conversation();
  const { sellerId } = await flow.sellers.create({
    name: 'Nordlicht Home GmbH',
    address: { city: 'Hamburg', country: 'DE' },
  });

  const quote = await flow.quotes.create(liabilityQuote(sellerId));
  expect(quote.status).toBe('quoted');
  expect(quote.price?.currency).toBe('EUR');

  const referred = await flow.quotes.create(liabilityQuote(sellerId), {
    forceManualReferral: true,
  });
  expect(referred.status).toBe('referred');

  expect(await flow.quotes.get(quote.quoteId)).toEqual(quote);
  expect(await flow.quotes.search({ sellerId })).toEqual([quote, referred]);
});

test('failures are typed errors', async () => {
  await expect(liability.quotes.get('QTE-2026-9999999')).rejects.toBeInstanceOf(NotFoundError);

  const error = await liability.quotes.create(liabilityQuote('SEL-999999')).catch((e) => e);
  expect(error).toBeInstanceOf(ValidationError);
  expect(error.causes[0]).toMatchObject({ field: '/insureds/0/sellerId', value: 'SEL-999999' });
});
// #endregion readme-example

// The README shows the example above verbatim, so it cannot rot.
import { readFileSync } from 'node:fs';

test('the README shows this example as it is', () => {
  const source = readFileSync(new URL('./readme-example.test.ts', import.meta.url), 'utf8');
  const example = /\/\/ #region readme-example\n([\s\S]*?)\/\/ #endregion/.exec(source)?.[1];
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  expect(example).toBeDefined();
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
});
