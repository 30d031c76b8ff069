import type { ServiceClient } from '@partner-apis/core';
import type { paths } from './generated/openapi.js';

/** The openapi-fetch client of the liability spec; the pipeline sets the tracing headers. */
export type LiabilityRaw = ServiceClient<paths>['raw'];
