/**
 * Types of the property exposure API, generated from `specs/exposure/openapi.yaml`.
 *
 * @example
 * import type { Location, StatementOfValues } from '@partner-apis/exposure';
 *
 * const portfolio: StatementOfValues = {
 *   currency: 'EUR',
 *   locations: [
 *     {
 *       locationId: 'LOC-0001842',
 *       name: 'Rotterdam distribution centre',
 *       address: { street: 'Waalhaven Zuidzijde 21', city: 'Rotterdam', country: 'NL' },
 *       occupancy: 'Warehouse',
 *       construction: 'Non-combustible',
 *       values: { buildings: 42_000_000 },
 *     },
 *   ],
 * };
 */
import type { components } from './generated/openapi.js';

export type { components, operations, paths } from './generated/openapi.js';

/** One exposure location record. Its fields are not published yet: the record is open. */
export type Location = components['schemas']['Location'];
/** A property portfolio for the provisional Statement of Values submission. */
export type StatementOfValues = components['schemas']['StatementOfValues'];
/** One location of a Statement of Values. */
export type StatementOfValuesLocation = components['schemas']['StatementOfValuesLocation'];
/** A postal address; `country` is ISO 3166-1 alpha-2. */
export type Address = components['schemas']['Address'];
/** WGS 84 coordinates of a location. */
export type Coordinates = components['schemas']['Coordinates'];
/** Insured values per coverage, in the portfolio's currency. */
export type CoverageValues = components['schemas']['CoverageValues'];
/** Whatever the service returns for an accepted Statement of Values; not published, so open. */
export type StatementOfValuesReceipt = components['schemas']['StatementOfValuesReceipt'];
/** The common error body of every error response. */
export type ErrorBody = components['schemas']['ErrorBody'];
