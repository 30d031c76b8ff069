// #region readme-example
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import {
  createExposureClient,
  type ExposureClient,
  type StatementOfValues,
} from '@partner-apis/exposure';
import { validateStatementOfValues } from '@partner-apis/exposure/statement-of-values';

let sb: Sandbox;
let exposure: ExposureClient;
beforeAll(async () => {
  sb = await startSandbox({ sizes: { exposureLocations: 3000 } });
  exposure = createExposureClient({
    baseUrl: sb.urls.exposure,
    tokenUrl: sb.urls.tokenUrl,
    credentials: sb.credentials.exposure, // { clientId, clientSecret, subscriptionKeys }
    pageSize: 1024, // records per request (upstream maximum)
    prefetch: 8, // requests in flight while iterating
  });
});
afterAll(() => sb.close());

test('reads the locations modified since a day, and one page', async () => {
  let count = 0;
  for await (const location of exposure.locations.list({ modifiedSince: '2025-06-01' })) {
    expect(String(location['modifiedDate']) >= '2025-06-01').toBe(true);
    count += 1;
  }
  expect(count).toBeGreaterThan(0);

  const tenth = await exposure.locations.page({ offset: 9, limit: 1 });
  expect(tenth[0]?.['locationId']).toBe('LOC-0000010');
});

test('checks a Statement of Values locally, then submits it', async () => {
  const portfolio: StatementOfValues = {
    portfolioName: 'European warehouses 2026',
    currency: 'EUR',
    locations: [
      {
        locationId: 'LOC-0001842',
        name: 'Rotterdam distribution centre',
        address: { street: 'Waalhaven Zuidzijde 21', city: 'Rotterdam', country: 'NL' },
        occupancy: 'Warehouse',
        construction: 'Non-combustible',
        values: { buildings: 42_000_000, contents: 15_500_000 },
      },
    ],
  };

  // The payload is not published, so this check against the spec's schema is advisory:
  // `submit` sends what it is given.
  const draft = { ...portfolio, currency: 'euro' };
  expect(validateStatementOfValues(draft).problems).toEqual([
    { pointer: '/currency', message: 'must match pattern "^[A-Z]{3}$"', keyword: 'pattern' },
  ]);

  const receipt = await exposure.statementOfValues.submit(portfolio);
  expect(receipt['status']).toBe('received');
});
// #endregion readme-example

// #region readme-sync
test('mirrors the locations: everything the first time, then what changed', async () => {
  const mirror = new Map<unknown, Record<string, unknown>>();
  let saved: string | undefined; // in production: a file or a database row

  const first = exposure.locations.sync({ checkpoint: saved, pageSize: 1024 });
  for await (const location of first) mirror.set(location['locationId'], location);
  saved = JSON.stringify(first.checkpoint);
  expect(mirror.size).toBe(3000);

  const next = exposure.locations.sync({ checkpoint: saved, pageSize: 1024 });
  for await (const location of next) mirror.set(location['locationId'], location);
  expect(next.checkpoint.complete).toBe(true);
  saved = JSON.stringify(next.checkpoint);
  expect(JSON.parse(saved)).toEqual(next.checkpoint); // plain JSON, for the next run
});
// #endregion readme-sync

// The README shows the examples above verbatim, so they cannot rot.
import { readFileSync } from 'node:fs';

test('the README shows these examples as they are', () => {
  const source = readFileSync(new URL('./readme-example.test.ts', import.meta.url), 'utf8');
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  for (const region of ['readme-example', 'readme-sync']) {
    const example = new RegExp(`// #region ${region}\n([\\s\\S]*?)// #endregion`).exec(source)?.[1];
    expect(example).toBeDefined();
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  }
});
