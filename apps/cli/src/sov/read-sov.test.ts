import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { DataError, UsageError } from '../usage-error.js';
import { readStatementOfValues } from './read-sov.js';
import { cellValue, columnLetter, locationColumn } from './sov-columns.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'partner-apis-sov-'));
});

async function file(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

const HEADER =
  'Location ID,name,street,city,postalCode,country,latitude,longitude,occupancy,construction,yearBuilt,sprinklered,buildings,contents,currency';

describe('CSV', () => {
  test('one location per row, values typed by column, portfolio fields from columns', async () => {
    const path = await file(
      'good.csv',
      `\uFEFF${HEADER}\n` +
        'LOC-1,Rotterdam DC,Waalhaven 21,Rotterdam,3089 JH,NL,51.88,4.43,Warehouse,Non-combustible,1998,yes,42000000,15500000,EUR\n' +
        '\n' +
        "LOC-2,Lyon plant,12 Rue de l'Industrie,Lyon,,FR,,,Light assembly,Masonry,,no,8000000,,EUR\n",
    );
    const sov = await readStatementOfValues(path, { portfolioName: 'Warehouses 2026' });
    expect(sov.format).toBe('csv');
    expect(sov.problems).toEqual([]);
    expect(sov.locationCount).toBe(2);
    expect(sov.portfolio).toEqual({
      currency: 'EUR',
      portfolioName: 'Warehouses 2026',
      locations: [
        {
          locationId: 'LOC-1',
          name: 'Rotterdam DC',
          address: {
            street: 'Waalhaven 21',
            city: 'Rotterdam',
            postalCode: '3089 JH',
            country: 'NL',
          },
          coordinates: { latitude: 51.88, longitude: 4.43 },
          occupancy: 'Warehouse',
          construction: 'Non-combustible',
          yearBuilt: 1998,
          sprinklered: true,
          values: { buildings: 42000000, contents: 15500000 },
        },
        {
          locationId: 'LOC-2',
          name: 'Lyon plant',
          address: { street: "12 Rue de l'Industrie", city: 'Lyon', country: 'FR' },
          occupancy: 'Light assembly',
          construction: 'Masonry',
          sprinklered: false,
          values: { buildings: 8000000 },
        },
      ],
    });
  });

  test('pointers of the schema check become rows and columns', async () => {
    const path = await file(
      'locate.csv',
      'locationId,name,city,country,yearBuilt,buildings,contents,currency\n' +
        'LOC-1,"Two\nlines",Lyon,FR,1998,1,2,EUR\n' +
        'LOC-2,B,Lyon,FR,old,1,2,EUR\n',
    );
    const sov = await readStatementOfValues(path, {});
    expect(sov.locate('/locations/1/yearBuilt')).toBe('row 4, column E (yearBuilt)');
    expect(sov.locate('/locations/0/address/city')).toBe('row 2, column C (city)');
    expect(sov.locate('/locations/0/address/street')).toBe(
      'row 2, column street (not in the file)',
    );
    expect(sov.locate('/locations/1/values')).toBe(
      'row 4, column F (buildings), column G (contents)',
    );
    expect(sov.locate('/locations/1')).toBe('row 4');
    expect(sov.locate('/locations')).toBe('the data rows');
    expect(sov.locate('/currency')).toBe('row 2, column H (currency)');
    expect(sov.locate('/valuationDate')).toBe(
      'valuationDate (add a valuationDate column or --valuation-date)',
    );
    const withFlag = await readStatementOfValues(path, { currency: 'CHF' });
    expect(withFlag.portfolio.currency).toBe('CHF');
    expect(withFlag.locate('/currency')).toBe('--currency');
  });

  test('text that does not fit a number column is kept, for the schema check to report', async () => {
    const path = await file('types.csv', 'locationId,yearBuilt,sprinklered\nL,19x8,maybe\n');
    const sov = await readStatementOfValues(path, {});
    expect(sov.portfolio.locations).toEqual([
      { locationId: 'L', yearBuilt: '19x8', sprinklered: 'maybe' },
    ]);
  });

  test('unknown and repeated columns, short rows and disagreeing portfolio fields are problems', async () => {
    const path = await file(
      'problems.csv',
      'locationId,colour,city,City,currency\nL1,red,Lyon,Lyon,EUR\nL2,blue,Lyon\nL3,red,Lyon,Lyon,USD\n',
    );
    const sov = await readStatementOfValues(path, {});
    expect(sov.problems).toEqual([
      {
        where: 'row 1, column B (colour)',
        message: expect.stringMatching(/^unknown column; the columns are locationId, name, street/),
      },
      { where: 'row 1, column D (City)', message: 'repeats column C (city)' },
      { where: 'row 3', message: 'has 3 fields; the header has 5' },
      {
        where: 'row 4, column E (currency)',
        message: 'currency must be the same in every row ("EUR" in row 2)',
      },
    ]);
  });

  test('semicolons between fields, a byte order mark and decimal commas, as European spreadsheets export', async () => {
    const path = await file(
      'semicolons.csv',
      '\uFEFFlocationId;name;city;country;latitude;buildings;currency\n' +
        'LOC-1;"Entrepôt; Lyon";Lyon;FR;45,76;8000000;EUR\n' +
        'LOC-2;Rotterdam DC;Rotterdam;NL;51.88;42000000,5;EUR\n',
    );
    const sov = await readStatementOfValues(path, {});
    expect(sov.problems).toEqual([]);
    expect(sov.portfolio).toEqual({
      currency: 'EUR',
      locations: [
        {
          locationId: 'LOC-1',
          name: 'Entrepôt; Lyon',
          address: { city: 'Lyon', country: 'FR' },
          coordinates: { latitude: 45.76 },
          values: { buildings: 8000000 },
        },
        {
          locationId: 'LOC-2',
          name: 'Rotterdam DC',
          address: { city: 'Rotterdam', country: 'NL' },
          coordinates: { latitude: 51.88 },
          values: { buildings: 42000000.5 },
        },
      ],
    });
  });

  test('a JSON file with a byte order mark', async () => {
    const path = await file('bom.json', '\uFEFF{"currency":"EUR","locations":[]}');
    expect((await readStatementOfValues(path, {})).portfolio).toEqual({
      currency: 'EUR',
      locations: [],
    });
  });

  test('a quote that is never closed is bad data (exit code 1), at the row where it opens', async () => {
    const broken = readStatementOfValues(
      await file('broken.csv', 'locationId,name\nLOC-1,a\nLOC-2,"Lyon\nLOC-3,b\n'),
      {},
    );
    await expect(broken).rejects.toBeInstanceOf(DataError);
    await expect(broken).rejects.toThrow(
      /broken\.csv: row 3: a quoted field opens here and is never closed \(a " is missing\); nothing was sent$/,
    );
  });

  test('an empty file is bad data (exit code 1), as a broken one is; a missing file is a usage error', async () => {
    const empty = readStatementOfValues(await file('empty.csv', ''), {});
    await expect(empty).rejects.toBeInstanceOf(DataError);
    await expect(empty).rejects.toThrow(/is empty/);
    const missing = readStatementOfValues(join(dir, 'nope.csv'), {});
    await expect(missing).rejects.toBeInstanceOf(UsageError);
    await expect(missing).rejects.toThrow(/cannot read .*nope.csv: it does not exist/);
  });
});

describe('JSON', () => {
  test('a StatementOfValues object; pointers name the location', async () => {
    const path = await file(
      'sov.json',
      JSON.stringify({ currency: 'EUR', locations: [{ locationId: 'LOC-9' }] }),
    );
    const sov = await readStatementOfValues(path, { policyReference: 'PRP-1' });
    expect(sov.format).toBe('json');
    expect(sov.portfolio).toEqual({
      currency: 'EUR',
      policyReference: 'PRP-1',
      locations: [{ locationId: 'LOC-9' }],
    });
    expect(sov.locate('/locations/0/name')).toBe('/locations/0/name (location LOC-9)');
    expect(sov.locate('/currency')).toBe('/currency');
    expect(sov.locate('')).toBe('(the document)');
  });

  test('an array is the list of locations; content is sniffed when the extension says nothing', async () => {
    const path = await file('locations.txt', ' [{"locationId":"A"}]');
    const sov = await readStatementOfValues(path, { currency: 'EUR' });
    expect(sov.portfolio).toEqual({ locations: [{ locationId: 'A' }], currency: 'EUR' });
    expect(sov.locationCount).toBe(1);
  });

  test('invalid JSON and a scalar are bad data (exit code 1), as a broken CSV file is', async () => {
    const bad = readStatementOfValues(await file('bad.json', '{'), {});
    await expect(bad).rejects.toBeInstanceOf(DataError);
    await expect(bad).rejects.toThrow(/is not valid JSON/);
    const scalar = readStatementOfValues(await file('scalar.json', '42'), {});
    await expect(scalar).rejects.toBeInstanceOf(DataError);
    await expect(scalar).rejects.toThrow(
      /must hold a Statement of Values object or an array of locations/,
    );
  });
});

test('columns: accepted spellings, cell values and letters', () => {
  expect(locationColumn('Postal code')?.path).toEqual(['address', 'postalCode']);
  expect(locationColumn('values.business_interruption')?.header).toBe('businessInterruption');
  expect(locationColumn('colour')).toBeUndefined();
  expect(cellValue('-12.5e2', 'number')).toBe(-1250);
  expect(cellValue('1,000', 'number')).toBe('1,000');
  expect(cellValue('TRUE', 'boolean')).toBe(true);
  expect(cellValue('n/a', 'boolean')).toBe('n/a');
  expect([0, 25, 26, 701, 702].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA']);
});
