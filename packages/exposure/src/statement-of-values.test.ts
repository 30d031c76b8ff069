import { createTokenCache } from '@partner-apis/auth';
import { ServiceUnavailableError, ValidationError } from '@partner-apis/errors';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createExposureClient,
  type StatementOfValues,
  type StatementOfValuesLocation,
} from './index.js';
import { validateStatementOfValues } from './statement-of-values.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ seed: 3, sizes: { exposureLocations: 10 } });
});
afterAll(() => sb.close());
beforeEach(() => {
  sb.clearFaults();
  sb.resetStats();
});

const client = () =>
  createExposureClient({
    baseUrl: sb.urls.exposure,
    tokenUrl: sb.urls.tokenUrl,
    credentials: sb.credentials.exposure,
    tokenCache: createTokenCache(),
  });

function site(n: number, country: string): StatementOfValuesLocation {
  return {
    locationId: `LOC-${n}`,
    name: `Warehouse ${n}`,
    address: { street: `${n} Harbour Road`, city: 'Rotterdam', country },
    occupancy: 'Warehouse',
    construction: 'Non-combustible',
    values: { buildings: 1_000_000 * n },
  };
}

const portfolio = (): StatementOfValues => ({
  portfolioName: 'European warehouses 2026',
  valuationDate: '2026-01-01',
  currency: 'EUR',
  locations: [site(1, 'NL'), site(2, 'FR'), site(3, 'DE')],
});

/** Three locations, the third with a lower-case country, and more wrong elsewhere. */
function brokenPortfolio(): unknown {
  const broken = portfolio() as unknown as Record<string, unknown>;
  const locations = broken.locations as Array<Record<string, unknown>>;
  (locations[2]?.address as Record<string, unknown>).country = 'de';
  delete locations[1]?.occupancy;
  (locations[0] as Record<string, unknown>).values = {};
  locations[0]!['floorArea'] = -5;
  broken.currency = 'euro';
  broken.valuationDate = '2026-02-30';
  broken['owner/name'] = 'not in the schema';
  return broken;
}

const submissions = () => sb.stats().routes['exposure.submitStatementOfValues']?.requests ?? 0;

describe('validateStatementOfValues', () => {
  it('accepts a portfolio that fits the schema', () => {
    expect(validateStatementOfValues(portfolio())).toEqual({ valid: true, problems: [] });
  });

  it('reports every problem with its JSON Pointer, without a request', () => {
    const { valid, problems } = validateStatementOfValues(brokenPortfolio());
    expect(valid).toBe(false);
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          pointer: '/owner~1name',
          message: 'is not a field of the schema',
          keyword: 'additionalProperties',
        },
        { pointer: '/valuationDate', message: 'must match format "date"', keyword: 'format' },
        { pointer: '/currency', message: 'must match pattern "^[A-Z]{3}$"', keyword: 'pattern' },
        { pointer: '/locations/0/floorArea', message: 'must be >= 0', keyword: 'minimum' },
        {
          pointer: '/locations/0/values',
          message: 'must NOT have fewer than 1 properties',
          keyword: 'minProperties',
        },
        { pointer: '/locations/1/occupancy', message: 'is required', keyword: 'required' },
        {
          pointer: '/locations/2/address/country',
          message: 'must match pattern "^[A-Z]{2}$"',
          keyword: 'pattern',
        },
      ]),
    );
    expect(problems).toHaveLength(7);
    expect(sb.stats().totals.requests).toBe(0);
  });

  it('reports what is missing at the top, and a value that is no portfolio at all', () => {
    expect(validateStatementOfValues({}).problems.map((p) => p.pointer)).toEqual([
      '/currency',
      '/locations',
    ]);
    expect(validateStatementOfValues({ currency: 'EUR', locations: [] }).problems).toEqual([
      { pointer: '/locations', message: 'must NOT have fewer than 1 items', keyword: 'minItems' },
    ]);
    expect(validateStatementOfValues('portfolio.json').problems).toEqual([
      { pointer: '', message: 'must be object', keyword: 'type' },
    ]);
  });
});

describe('statementOfValues.submit', () => {
  it('submits a valid portfolio and returns the receipt', async () => {
    const receipt = await client().statementOfValues.submit(portfolio());
    expect(receipt).toMatchObject({ status: 'received', locationCount: 3 });
    expect(String(receipt['submissionId'])).toMatch(/^SOV-/);
    expect(submissions()).toBe(1);
  });

  it('sends a portfolio that breaks the assumed schema: the real service may take it', async () => {
    // The payload is not published, so the schema is our guess and never blocks a submission;
    // the sandbox plays that guess and refuses it, as the real service might.
    const error = await client()
      .statementOfValues.submit(brokenPortfolio() as StatementOfValues)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(submissions()).toBe(1);
  });

  it('throws ValidationError with the pointers of the service', async () => {
    sb.fault('exposure.submitStatementOfValues', {
      sequence: [
        {
          status: 400,
          body: {
            code: 'data_validation',
            message: 'The portfolio was refused.',
            correlationId: 'c-400',
            causes: [
              { code: 'unknown_policy', message: 'No such policy.', field: '/policyReference' },
            ],
          },
        },
      ],
    });
    const submitted = { ...portfolio(), policyReference: 'PRP-0000' };
    const error = await client()
      .statementOfValues.submit(submitted)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const [cause] = (error as ValidationError).causes;
    expect(cause).toMatchObject({ field: '/policyReference', pointer: ['policyReference'] });
    expect(cause?.value).toBe('PRP-0000');
  });

  it('does not send a submission twice after a 503, which it may have reached', async () => {
    sb.fault('exposure.submitStatementOfValues', { sequence: [503] });
    await expect(client().statementOfValues.submit(portfolio())).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    expect(submissions()).toBe(1);
  });

  it('refuses a signal that is not an AbortSignal', async () => {
    await expect(
      client().statementOfValues.submit(portfolio(), { signal: 'stop' as never }),
    ).rejects.toThrow('statementOfValues.submit: options.signal must be an AbortSignal');
  });
});
