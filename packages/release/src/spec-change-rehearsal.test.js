// @ts-check
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyWorkspace } from './spec-change-rehearsal.js';

/**
 * Upstream changes the spec can express, each a spec edit alone: a new optional query parameter
 * of every type on a paged read, an envelope answer, changed page-size limits, a new enum value
 * and a new search filter. No hand-written file of the copy is touched.
 */
const NEW_QUERY_PARAMETERS = [
  { name: 'region', in: 'query', schema: { type: 'string', enum: ['EU', 'US'] } },
  { name: 'site', in: 'query', schema: { type: 'string', minLength: 2 } },
  { name: 'minScore', in: 'query', schema: { type: 'integer', minimum: 0 } },
  { name: 'ratio', in: 'query', schema: { type: 'number', maximum: 1 } },
  { name: 'active', in: 'query', schema: { type: 'boolean' } },
  { name: 'openedOn', in: 'query', schema: { type: 'string', format: 'date' } },
  { name: 'changedAfter', in: 'query', schema: { type: 'string', format: 'date-time' } },
];

/** The consumer: compiled with `tsc --strict`, so every new name must be typed, then run. */
const CONSUMER = `
import { createExposureClient } from '@partner-apis/exposure';
import {
  COUNTRIES_OF_SALES,
  createLiabilityClient,
  thirdPartyLiabilityPolicyLine,
} from '@partner-apis/liability';

const base = '__BASE_URL__';
const failure = (action: () => unknown) =>
  Promise.resolve()
    .then(action)
    .then(
      () => 'sent',
      (error: Error) => error.message,
    );

const exposure = createExposureClient({
  baseUrl: base,
  tokenUrl: base + '/token',
  credentials: { clientId: 'c', clientSecret: 's', subscriptionKeys: { primary: 'k' } },
});
const page = await exposure.locations.page({
  region: 'EU',
  site: 'HAM',
  minScore: 3,
  ratio: 0.5,
  active: true,
  openedOn: new Date('2026-03-01T12:00:00Z'),
  changedAfter: '2026-03-01T00:00:00Z',
});
const listed: unknown[] = [];
for await (const location of exposure.locations.list({ region: 'US', pageSize: 3 })) {
  listed.push(location);
}
const total: number | undefined = page.envelope?.total;

const liability = createLiabilityClient({
  baseUrl: base + '/v1',
  credentials: { clientId: 'c', clientSecret: 's' },
});
const found = await liability.quotes.search({ status: 'quoted' });

console.log(
  JSON.stringify({
    page: page.length,
    total,
    listed: listed.length,
    tooLarge: await failure(() => exposure.locations.list({ pageSize: 501 })),
    badRegion: await failure(() => exposure.locations.page({ region: 'ASIA' as 'EU' })),
    countries: COUNTRIES_OF_SALES,
    line: thirdPartyLiabilityPolicyLine({ countryOfSales: 'LATAM', territoryOfSales: 'NON-US' }),
    found,
  }),
);
`;

/** @type {URLSearchParams[]} */
const locationQueries = [];
/** @type {URLSearchParams[]} */
const quoteQueries = [];
const TOTAL = 7;

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const json = (/** @type {unknown} */ body) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(body));
  };
  request.resume();
  if (url.pathname === '/token') {
    json({ access_token: 'token-1', token_type: 'Bearer', expires_in: 3600 });
  } else if (url.pathname === '/open/portal-api/exposure/locations') {
    locationQueries.push(url.searchParams);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit'));
    const count = Math.max(0, Math.min(limit, TOTAL - offset));
    const items = Array.from({ length: count }, (_, i) => ({ locationId: `LOC-${offset + i}` }));
    json({ items, total: TOTAL });
  } else if (url.pathname === '/v1/quotes') {
    quoteQueries.push(url.searchParams);
    json([]);
  } else {
    response.statusCode = 404;
    json({ code: 'not_found', message: 'No such path.', correlationId: 'c' });
  }
});

/** @type {Awaited<ReturnType<typeof copyWorkspace>>} */
let workspace;
/** @type {Record<string, any>} */
let result;

beforeAll(async () => {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  workspace = await copyWorkspace(['exposure', 'liability']);

  await workspace.editSpec('common', (doc) => {
    // Changed limits of every paged read.
    doc.setIn(['components', 'parameters', 'Limit', 'schema', 'maximum'], 500);
    doc.setIn(['components', 'parameters', 'Limit', 'schema', 'default'], 50);
  });
  await workspace.editSpec('exposure', (doc) => {
    const read = ['paths', '/open/portal-api/exposure/locations', 'get'];
    for (const parameter of NEW_QUERY_PARAMETERS) {
      doc.addIn([...read, 'parameters'], doc.createNode(parameter));
    }
    // The answer becomes an envelope object.
    const schema = [...read, 'responses', '200', 'content', 'application/json'];
    doc.setIn(
      [...schema, 'schema'],
      doc.createNode({
        type: 'object',
        required: ['items'],
        properties: {
          items: { type: 'array', items: { $ref: '#/components/schemas/Location' } },
          total: { type: 'integer' },
        },
      }),
    );
    doc.deleteIn([...schema, 'examples']);
  });
  await workspace.editSpec('liability', (doc) => {
    // A new enum value and a new search filter.
    doc.addIn(['components', 'schemas', 'CountryOfSales', 'enum'], 'LATAM');
    doc.addIn(
      ['paths', '/quotes', 'get', 'parameters'],
      doc.createNode({ name: 'status', in: 'query', schema: { type: 'string' } }),
    );
  });
  for (const pkg of ['exposure', 'liability']) {
    await workspace.regenerate(pkg);
    await workspace.build(pkg);
  }
  result = JSON.parse(await workspace.runConsumer(CONSUMER.replace('__BASE_URL__', base)));
}, 240_000);

afterAll(async () => {
  server.close();
  await workspace?.remove();
});

describe('an upstream change the spec can express reaches users with a spec edit alone', () => {
  it('new optional query parameters of every type are typed, checked and sent', () => {
    const [first] = locationQueries;
    expect(Object.fromEntries(first ?? [])).toEqual({
      region: 'EU',
      site: 'HAM',
      minScore: '3',
      ratio: '0.5',
      active: 'true',
      openedOn: '2026-03-01',
      changedAfter: '2026-03-01T00:00:00Z',
      limit: '50',
    });
    expect(result.badRegion).toBe(
      'locations.page: options.region must be one of EU, US (got "ASIA")',
    );
  });

  it('the records are found in the new envelope, whose other fields stay reachable', () => {
    expect(result.page).toBe(TOTAL);
    expect(result.total).toBe(TOTAL);
    expect(result.listed).toBe(TOTAL);
    expect(locationQueries.slice(1).every((query) => query.get('region') === 'US')).toBe(true);
  });

  it('the changed page-size limit and default apply', () => {
    expect(result.tooLarge).toBe(
      'locations.list: options.pageSize must be an integer from 1 to 500 (got 501)',
    );
    expect(locationQueries[0]?.get('limit')).toBe('50');
  });

  it('a new enum value and a new search filter are accepted', () => {
    expect(result.countries).toContain('LATAM');
    expect(result.line.declarativeQuestionAnswers).toEqual({
      countryOfSales: 'LATAM',
      territoryOfSales: 'NON-US',
    });
    expect(quoteQueries.map((query) => query.get('status'))).toEqual(['quoted']);
    expect(result.found).toEqual([]);
  });
});
