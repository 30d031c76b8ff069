// @ts-check
export { inlineRefs, isObject, resolveRef } from './document.js';
export { defaultPageSize, describeSpec, responseSchema } from './operations.js';
/**
 * @typedef {import('./document.js').OpenApiDocument} OpenApiDocument
 * @typedef {import('./operations.js').ApiKeyModel} ApiKeyModel
 * @typedef {import('./operations.js').ArgumentModel} ArgumentModel
 * @typedef {import('./operations.js').BodyModel} BodyModel
 * @typedef {import('./operations.js').Constraints} Constraints
 * @typedef {import('./operations.js').OperationModel} OperationModel
 * @typedef {import('./operations.js').PagingModel} PagingModel
 * @typedef {import('./operations.js').ParameterLocation} ParameterLocation
 * @typedef {import('./operations.js').ParameterModel} ParameterModel
 * @typedef {import('./operations.js').SecurityModel} SecurityModel
 * @typedef {import('./operations.js').SpecModel} SpecModel
 * @typedef {import('./operations.js').SuccessModel} SuccessModel
 */
