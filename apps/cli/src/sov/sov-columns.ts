/** How the text of a CSV cell becomes a JSON value. */
export type CellKind = 'string' | 'number' | 'boolean';

/** A column of a Statement of Values CSV and where its value goes in a location. */
export interface LocationColumn {
  /** The canonical header, as the README documents it. */
  readonly header: string;
  /** Path of the value inside one location of the portfolio. */
  readonly path: readonly string[];
  readonly kind: CellKind;
}

/** The columns of one location row, in the order the README template lists them. */
export const LOCATION_COLUMNS: readonly LocationColumn[] = [
  { header: 'locationId', path: ['locationId'], kind: 'string' },
  { header: 'name', path: ['name'], kind: 'string' },
  { header: 'street', path: ['address', 'street'], kind: 'string' },
  { header: 'city', path: ['address', 'city'], kind: 'string' },
  { header: 'postalCode', path: ['address', 'postalCode'], kind: 'string' },
  { header: 'region', path: ['address', 'region'], kind: 'string' },
  { header: 'country', path: ['address', 'country'], kind: 'string' },
  { header: 'latitude', path: ['coordinates', 'latitude'], kind: 'number' },
  { header: 'longitude', path: ['coordinates', 'longitude'], kind: 'number' },
  { header: 'occupancy', path: ['occupancy'], kind: 'string' },
  { header: 'construction', path: ['construction'], kind: 'string' },
  { header: 'yearBuilt', path: ['yearBuilt'], kind: 'number' },
  { header: 'numberOfStoreys', path: ['numberOfStoreys'], kind: 'number' },
  { header: 'floorArea', path: ['floorArea'], kind: 'number' },
  { header: 'sprinklered', path: ['sprinklered'], kind: 'boolean' },
  { header: 'buildings', path: ['values', 'buildings'], kind: 'number' },
  { header: 'contents', path: ['values', 'contents'], kind: 'number' },
  { header: 'businessInterruption', path: ['values', 'businessInterruption'], kind: 'number' },
];

/** Portfolio fields a CSV may carry as columns; every row must then agree on the value. */
export const PORTFOLIO_COLUMNS = [
  'portfolioName',
  'policyReference',
  'valuationDate',
  'currency',
] as const;

export type PortfolioField = (typeof PORTFOLIO_COLUMNS)[number];

/**
 * Header text compared without case, spaces, dots, dashes or underscores.
 */
function headerKey(header: string): string {
  return header.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const BY_KEY = new Map<string, LocationColumn>();
for (const column of LOCATION_COLUMNS) {
  BY_KEY.set(headerKey(column.header), column);
  // `address.city` and `values.buildings` name the same columns as `city` and `buildings`.
  BY_KEY.set(headerKey(column.path.join('.')), column);
}

/**
 * The location column a CSV header names, if any; `Location ID`, `location_id` and
 * `address.city` are accepted spellings.
 */
export function locationColumn(header: string): LocationColumn | undefined {
  return BY_KEY.get(headerKey(header));
}

/**
 * The portfolio field a CSV header names, if any.
 */
export function portfolioColumn(header: string): PortfolioField | undefined {
  return PORTFOLIO_COLUMNS.find((field) => headerKey(field) === headerKey(header));
}

const BOOLEANS: Readonly<Record<string, boolean>> = {
  true: true,
  yes: true,
  y: true,
  '1': true,
  false: false,
  no: false,
  n: false,
  '0': false,
};

/**
 * The JSON value of a cell; `decimalComma` reads `51,88` as 51.88. Text that does not fit the kind is kept as text, so that the schema
 * check reports it at its row and column rather than the reader guessing.
 */
export function cellValue(
  text: string,
  kind: CellKind,
  decimalComma = false,
): string | number | boolean {
  if (kind === 'number' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text))
    return Number(text);
  if (kind === 'number' && decimalComma && /^[-+]?\d+,\d+$/.test(text)) {
    return Number(text.replace(',', '.'));
  }
  if (kind === 'boolean') return BOOLEANS[text.toLowerCase()] ?? text;
  return text;
}

/**
 * The spreadsheet letter of a zero-based column index: 0 → A, 25 → Z, 26 → AA.
 */
export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}
