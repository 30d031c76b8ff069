import { clientIdHeaders, type ClientCredentials } from '@partner-apis/auth';
import { startFaultServer, type FaultServer, type RecordedRequest } from '@partner-apis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createServiceClient,
  operationMethod,
  pagedRead,
  type ApiPromise,
  type OffsetCollection,
  type OperationDescription,
} from './index.js';

/** The two operations the README example calls, as openapi-typescript would generate them. */
interface paths {
  '/approvals': {
    get: {
      parameters: {
        query: { employeeNumber: string };
        header: { 'X-Z-Request-Id': string };
      };
      responses: { 200: { content: { 'application/json': { employeeNumber: string } } } };
    };
  };
}

/** And as codegen describes them in `src/generated/operations.ts`. */
const getApprovals = {
  operationId: 'getApprovals',
  resource: 'approvals',
  verb: 'get',
  method: 'GET',
  path: '/approvals',
  arguments: [{ in: 'params', required: true }],
  parameters: [{ name: 'employeeNumber', in: 'query', required: true, type: 'string' }],
  response: { kind: 'json', type: 'object' },
  security: [],
} as const satisfies OperationDescription;
const listLocations = {
  operationId: 'listLocations',
  resource: 'locations',
  verb: 'list',
  method: 'GET',
  path: '/locations',
  arguments: [{ in: 'params', required: false }],
  parameters: [
    { name: 'modifiedSince', in: 'query', required: false, type: 'string', format: 'date' },
    {
      name: 'limit',
      in: 'query',
      required: false,
      type: 'integer',
      maximum: 1024,
      default: 128,
      paging: 'limit',
    },
    { name: 'offset', in: 'query', required: false, type: 'integer', paging: 'offset' },
  ],
  response: { kind: 'json', type: 'object' },
  paging: { pageSize: 128, records: 'items' },
  security: [],
} as const satisfies OperationDescription;
const service = {
  operations: { getApprovals, listLocations },
  securitySchemes: {},
  tracingHeaders: { requestId: 'X-Z-Request-Id' },
} as const;

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function servedLocations(request: RecordedRequest) {
  const query = new URL(request.url, 'http://x').searchParams;
  const offset = Number(query.get('offset'));
  const count = Math.max(0, Math.min(Number(query.get('limit')), 1300 - offset));
  return { body: { items: Array.from({ length: count }, (_, i) => ({ id: offset + i })) } };
}

describe('README example', () => {
  it('runs as written, against a local server', async () => {
    server = await startFaultServer({
      '/v1/approvals': [{ body: { employeeNumber: '100234' } }],
      '/v1/locations': servedLocations,
    });
    const logged: string[] = [];
    const printed: unknown[] = [];
    const console = {
      warn: (message: string) => logged.push(message),
      log: (v: unknown) => printed.push(v),
    };

    const client = createServiceClient<paths, typeof service>(
      {
        baseUrl: `${server.url}/v1`,
        credentials: { clientId: 'my-client', clientSecret: process.env.SECRET ?? 's' },
        retry: { attempts: 4 },
        timeout: { attemptMs: 10_000, totalMs: 60_000 },
        logger: console,
      },
      {
        auth: (credentials) => clientIdHeaders(credentials as unknown as ClientCredentials),
        rateLimit: { requestsPerSecond: 100 },
        service,
      },
    );

    const listApprovals = operationMethod<
      (params: { employeeNumber: string }) => ApiPromise<{ employeeNumber: string }>
    >(client, getApprovals);
    const result = await listApprovals({ employeeNumber: '100234' });

    const locations = pagedRead<OffsetCollection>(client, listLocations, { prefetch: 4 });
    for await (const location of locations.list({ modifiedSince: '2026-01-31' })) {
      console.log(location);
    }
    console.log(result.employeeNumber);

    expect(result).toEqual({ employeeNumber: '100234' });
    expect(printed).toEqual([...Array.from({ length: 1300 }, (_, i) => ({ id: i })), '100234']);
    expect(logged).toEqual([]);
    const pages = server.requestsTo('/v1/locations');
    expect(pages.every((r) => r.url.includes('modifiedSince=2026-01-31'))).toBe(true);
  });
});
