import type { OpenApiDocument } from '@partner-apis/spec-model';
import { openapiDocument as approvals } from './generated/approvals.document.js';
import { openapiDocument as auth } from './generated/auth.document.js';
import { openapiDocument as exposure } from './generated/exposure.document.js';
import { openapiDocument as liability } from './generated/liability.document.js';
import { openapiDocument as riskengineering } from './generated/riskengineering.document.js';

/** The specs the sandbox serves, by their folder under `specs/`. */
export type SpecName = 'auth' | 'exposure' | 'riskengineering' | 'liability' | 'approvals';

/**
 * The bundled OpenAPI document (every external `$ref` inlined) of each spec this sandbox was
 * built from: what it serves and validates against, for tools that read the same specs.
 *
 * @example
 * import { specDocuments } from '@partner-apis/sandbox/specs';
 * import { describeSpec } from '@partner-apis/spec-model';
 * describeSpec(specDocuments.exposure).operations.map((op) => op.operationId); // ['listLocations', …]
 */
export const specDocuments: Readonly<Record<SpecName, OpenApiDocument>> = {
  auth,
  exposure,
  riskengineering,
  liability,
  approvals,
};
