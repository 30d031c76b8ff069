export { createUndiciFetch } from './undici-fetch.js';
export type { UndiciFetch, UndiciFetchOptions } from './undici-fetch.js';
