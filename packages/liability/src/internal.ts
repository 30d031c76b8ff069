/**
 * What tools that follow the spec read (the sample command line, the sandbox, conformance
 * checks): every operation of the spec as the client calls it. Not part of the client's API:
 * it changes with the spec, without a major release.
 *
 * @example
 * import { operations } from '@partner-apis/liability/internal';
 * for (const { resource, verb, method, path } of Object.values(operations)) {
 *   console.log(`${resource}.${verb}: ${method} ${path}`);
 * }
 */
export { operations } from './generated/operations.js';
export type { OperationDescription, ParameterDescription } from '@partner-apis/core';
