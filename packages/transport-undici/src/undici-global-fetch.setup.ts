// Setup of the pipeline conformance run (vitest.pipeline.config.ts): every client the suites
// create without a `fetch` option sends through this transport instead of Node's fetch.
import { createUndiciFetch } from './index.js';

globalThis.fetch = createUndiciFetch() as typeof globalThis.fetch;
