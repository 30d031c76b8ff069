import { clientIdHeaders } from '@partner-apis/auth';
import { startFaultServer, type FaultServer, type RecordedRequest } from '@partner-apis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient, expectData, paginate } from './index.js';

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
  '/locations': {
    get: {
      parameters: {
        query?: { offset?: number; limit?: number };
        header: { 'X-Z-Request-Id': string; 'X-Z-Conversation-Id': string };
      };
      responses: { 200: { content: { 'application/json': { items: Array<{ id: number }> } } } };
    };
  };
}

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function locations(request: RecordedRequest) {
  const query = new URL(request.url, 'http://x').searchParams;
  const offset = Number(query.get('offset'));
  const count = Math.max(0, Math.min(Number(query.get('limit')), 1300 - offset));
  return { body: { items: Array.from({ length: count }, (_, i) => ({ id: offset + i })) } };
}

describe('README example', () => {
  it('runs as written, against a local server', async () => {
    server = await startFaultServer({
      '/v1/approvals': [{ body: { employeeNumber: '100234' } }],
      '/v1/locations': locations,
    });
    const logged: string[] = [];
    const logger = { warn: (message: string) => logged.push(message) };

    const { raw } = createServiceClient<paths>({
      baseUrl: `${server.url}/v1`,
      auth: clientIdHeaders({ clientId: 'my-client', clientSecret: process.env.SECRET ?? 's' }),
      rateLimit: 'gold',
      retry: { attempts: 4 },
      timeout: { attemptMs: 10_000, totalMs: 60_000 },
      logger,
    });

    const result = expectData(
      await raw.GET('/approvals', { params: { query: { employeeNumber: '100234' } } }),
      'GET /approvals',
    );

    const iteration = paginate({
      pageSize: 512,
      maxPageSize: 1024,
      prefetch: 4,
      fetchPage: async ({ offset, limit, signal, conversationId }) => {
        const { data } = await raw.GET('/locations', {
          params: { query: { offset, limit }, header: { 'X-Z-Conversation-Id': conversationId } },
          signal,
        });
        return data?.items ?? [];
      },
    });
    const ids: number[] = [];
    for await (const location of iteration) ids.push(location.id);

    expect(result.employeeNumber).toBe('100234');
    expect(ids).toEqual(Array.from({ length: 1300 }, (_, i) => i));
    expect(logged).toEqual([]);
  });
});
