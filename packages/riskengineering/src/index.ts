/**
 * Types of the risk engineering API, generated from `specs/riskengineering/openapi.yaml`.
 *
 * @example
 * import type { Grading } from '@partner-apis/riskengineering';
 *
 * function gradingIds(gradings: Grading[]): unknown[] {
 *   return gradings.map((grading) => grading['gradingId']);
 * }
 */
import type { components } from './generated/openapi.js';

export type { components, operations, paths } from './generated/openapi.js';

/** One risk engineering grading record. Its fields are not published yet: the record is open. */
export type Grading = components['schemas']['Grading'];
/** One location record of the risk engineering service. Its fields are not published yet. */
export type RiskLocation = components['schemas']['RiskLocation'];
/** The common error body of every error response. */
export type ErrorBody = components['schemas']['ErrorBody'];
