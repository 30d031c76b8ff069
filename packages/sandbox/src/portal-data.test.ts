import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  GRADINGS_PATH,
  LOCATIONS_PATH,
  RISK_LOCATIONS_PATH,
  portalGet,
  tokenOf,
} from './sandbox.fixture.js';
import { startSandbox, type Sandbox } from './index.js';

type Row = Record<string, unknown> & { locationId: string; modifiedDate: string };

const SIZES = { exposureLocations: 3000, riskLocations: 3000, gradings: 2000 };

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ sizes: SIZES });
});
afterAll(() => sb.close());
afterEach(() => expect(sb.stats().responseViolations).toEqual([]));

async function rows(
  sandbox: Sandbox,
  path: string,
  service: 'exposure' | 'riskEngineering' = 'exposure',
) {
  const response = await portalGet(sandbox, service, path);
  expect(response.status).toBe(200);
  return (await response.json()) as Row[];
}

describe('paging', () => {
  it('returns 128 records by default, from the first', async () => {
    const page = await rows(sb, LOCATIONS_PATH);
    expect(page).toHaveLength(128);
    expect(page[0]?.locationId).toBe('LOC-0000001');
    expect(page[127]?.locationId).toBe('LOC-0000128');
  });

  it('takes limit up to 1024 and offset as a zero-based record index', async () => {
    const page = await rows(sb, `${LOCATIONS_PATH}?limit=1024&offset=10`);
    expect(page).toHaveLength(1024);
    expect(page[0]?.locationId).toBe('LOC-0000011');
  });

  it('returns the rest on the last page and an empty list past the end', async () => {
    expect(await rows(sb, `${LOCATIONS_PATH}?limit=100&offset=2950`)).toHaveLength(50);
    expect(await rows(sb, `${LOCATIONS_PATH}?offset=3000`)).toEqual([]);
  });

  it('keeps only records modified on or after modifiedSince, and pages within them', async () => {
    const since = '2025-01-01';
    const all: Row[] = [];
    for (let offset = 0; offset < 3000; offset += 1024) {
      const page = await rows(
        sb,
        `${LOCATIONS_PATH}?modifiedSince=${since}&limit=1024&offset=${offset}`,
      );
      all.push(...page);
      if (page.length < 1024) break;
    }
    expect(all.length).toBeGreaterThan(0);
    expect(all.length).toBeLessThan(3000);
    expect(all.every((row) => row.modifiedDate >= since)).toBe(true);
    // The record just before the first kept one was modified before the date.
    const firstIndex = Number(all[0]!.locationId.slice(4)) - 1;
    const [before] = await rows(sb, `${LOCATIONS_PATH}?limit=1&offset=${firstIndex - 1}`);
    expect(before!.modifiedDate < since).toBe(true);
    expect(all.at(-1)?.locationId).toBe('LOC-0003000');
  });
});

describe('generated data', () => {
  it('is the same for the same seed and different for another', async () => {
    const other = await startSandbox({ seed: 2, sizes: SIZES });
    const same = await startSandbox({ sizes: SIZES });
    try {
      const path = `${LOCATIONS_PATH}?limit=5&offset=40`;
      expect(await rows(same, path)).toEqual(await rows(sb, path));
      expect(await rows(other, path)).not.toEqual(await rows(sb, path));
    } finally {
      await Promise.all([other.close(), same.close()]);
    }
  });

  it('describes locations with address, values and dates', async () => {
    const [location] = await rows(sb, `${LOCATIONS_PATH}?limit=1&offset=7`);
    expect(location).toEqual({
      locationId: 'LOC-0000008',
      name: expect.any(String),
      address: {
        street: expect.any(String),
        city: expect.any(String),
        postalCode: expect.any(String),
        country: expect.stringMatching(/^[A-Z]{2}$/),
      },
      country: expect.stringMatching(/^[A-Z]{2}$/),
      coordinates: { latitude: expect.any(Number), longitude: expect.any(Number) },
      occupancy: expect.any(String),
      construction: expect.any(String),
      yearBuilt: expect.any(Number),
      numberOfStoreys: expect.any(Number),
      floorArea: expect.any(Number),
      sprinklered: expect.any(Boolean),
      currency: expect.stringMatching(/^[A-Z]{3}$/),
      values: {
        buildings: expect.any(Number),
        contents: expect.any(Number),
        businessInterruption: expect.any(Number),
      },
      modifiedDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it('gives a record the same fields whichever page reads it', async () => {
    const page = await rows(sb, `${RISK_LOCATIONS_PATH}?limit=10&offset=20`, 'riskEngineering');
    const slice = await rows(sb, `${RISK_LOCATIONS_PATH}?limit=3&offset=25`, 'riskEngineering');
    expect(slice).toEqual(page.slice(5, 8));
    expect(slice.map((r) => r.locationId)).toEqual(['LOC-0000026', 'LOC-0000027', 'LOC-0000028']);
    // Records are not copies of one another.
    expect(
      new Set(page.map((r) => JSON.stringify({ ...r, locationId: 0, modifiedDate: 0 }))).size,
    ).toBeGreaterThan(5);
  });

  it('grades locations that exist', async () => {
    const gradings = await rows(sb, `${GRADINGS_PATH}?limit=1024`, 'riskEngineering');
    expect(gradings).toHaveLength(1024);
    for (const grading of gradings) {
      expect(grading.grade).toMatch(/^[A-E]$/);
      expect(Number(grading.locationId.slice(4))).toBeLessThanOrEqual(3000);
    }
  });
});

describe('size', () => {
  it('pages through 100,000 locations without memory growing with the data', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heapAfterGc = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const MB = 1024 * 1024;

    const beforeStart = heapAfterGc();
    const huge = await startSandbox({
      sizes: { exposureLocations: 5_000_000 },
      validateResponses: false,
    });
    // Five million records cost nothing until they are asked for.
    expect(heapAfterGc() - beforeStart).toBeLessThan(8 * MB);
    await huge.close();

    const big = await startSandbox({
      sizes: { exposureLocations: 100_000 },
      validateResponses: false,
    });
    try {
      const headers = {
        authorization: `Bearer ${await tokenOf(big, 'exposure')}`,
        'ocp-apim-subscription-key': big.credentials.exposure.subscriptionKeys.primary,
      };
      const before = heapAfterGc();
      let received = 0;
      let bytes = 0;
      let last = '';
      for (let offset = 0; offset < 200_000; offset += 1024) {
        const response = await fetch(
          `${big.urls.exposure}${LOCATIONS_PATH}?limit=1024&offset=${offset}`,
          { headers },
        );
        const text = await response.text();
        bytes += text.length;
        const page = JSON.parse(text) as Row[];
        if (page.length === 0) break;
        received += page.length;
        last = page.at(-1)!.locationId;
      }
      expect(received).toBe(100_000);
      expect(last).toBe('LOC-0100000');
      // Tens of megabytes went over the wire; the heap kept none of it.
      expect(bytes).toBeGreaterThan(30 * MB);
      expect(heapAfterGc() - before).toBeLessThan(8 * MB);
    } finally {
      await big.close();
    }
  }, 60_000);
});

describe('Statement of Values', () => {
  const submit = async (portfolio: unknown) =>
    fetch(`${sb.urls.exposure}/open/portal-api/exposure/statement-of-values`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await tokenOf(sb, 'exposure')}`,
        'ocp-apim-subscription-key': sb.credentials.exposure.subscriptionKeys.secondary,
        'content-type': 'application/json',
      },
      body: JSON.stringify(portfolio),
    });
  const location = {
    locationId: 'LOC-1',
    name: 'Rotterdam distribution centre',
    address: { street: 'Waalhaven Zuidzijde 21', city: 'Rotterdam', country: 'NL' },
    occupancy: 'Warehouse',
    construction: 'Non-combustible',
    values: { buildings: 42_000_000 },
  };

  it('accepts a portfolio that keeps to the spec', async () => {
    const response = await submit({ currency: 'EUR', locations: [location] });
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ status: 'received', locationCount: 1 });
  });

  it('points at every problem of a portfolio that does not', async () => {
    const response = await submit({
      locations: [{ ...location, address: { ...location.address, country: 'Netherlands' } }],
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { causes: { field: string }[] };
    expect(body.causes.map((c) => c.field)).toEqual(['/currency', '/locations/0/address/country']);
  });
});
