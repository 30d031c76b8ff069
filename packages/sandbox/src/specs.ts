import type { OpenApiDocument } from '@partner-apis/spec-model';
import { documents } from './generated/documents.js';

/** The specs the sandbox serves, by their folder under `specs/`. */
export type SpecName = keyof typeof documents;

/**
 * The bundled OpenAPI document (every external `$ref` inlined) of each spec this sandbox was
 * built from: what it serves and validates against, for tools that read the same specs.
 *
 * @example
 * import { specDocuments } from '@partner-apis/sandbox/specs';
 * import { describeSpec } from '@partner-apis/spec-model';
 * describeSpec(specDocuments.exposure).operations.map((op) => op.operationId); // ['listLocations', …]
 */
export const specDocuments: Readonly<Record<SpecName, OpenApiDocument>> = documents;
