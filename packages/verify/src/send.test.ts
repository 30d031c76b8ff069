import { startSandbox } from '@partner-apis/sandbox';
import {
  HAS_OPENSSL,
  refusedUrl,
  startConnectProxy,
  TunnelAgent,
  startHostileUpstream,
  startSelfSignedServer,
} from '@partner-apis/testing';
import { createSender } from './send.js';
import { describe, expect, it } from 'vitest';
import { verifyUpstream } from './verify.js';

describe('the way to the network', () => {
  it('sends through the agent it is given: a CONNECT proxy reaches the sandbox behind it', async () => {
    const sb = await startSandbox();
    const proxy = await startConnectProxy();
    try {
      const { findings } = await verifyUpstream({
        approvals: {
          baseUrl: sb.urls.approvals,
          credentials: sb.credentials.approvals,
          tier: 'gold',
          employeeNumber: sb.fixtures.employeeWithApprovals,
        },
        agent: new TunnelAgent(proxy.port),
      });
      expect(proxy.tunnels).toContain(new URL(sb.urls.approvals).host);
      expect(findings.filter((f) => f.status !== 'confirmed')).toEqual([]);
    } finally {
      proxy.close();
      await sb.close();
    }
  });

  it('names the refused connection in each unobserved finding, and sends nothing more to it', async () => {
    const url = await refusedUrl();
    const checks: string[] = [];
    const { findings } = await verifyUpstream({
      approvals: {
        baseUrl: `${url}/v1`,
        credentials: { clientId: 'c', clientSecret: 'secret-1' },
        tier: 'gold',
        employeeNumber: '1',
      },
      onProgress: (check) => checks.push(check),
    });
    expect(checks).toEqual([
      'approvals: an omitted employeeNumber, and the approvals of an employee',
    ]);
    expect(findings.map((f) => f.status)).toEqual(['unobserved', 'unobserved', 'unobserved']);
    expect(findings[0]!.evidence).toBe(
      `approvals without employeeNumber: no answer: GET ${url}/v1/approvals: connection refused (ECONNREFUSED)`,
    );
    expect(findings[1]!.evidence).toBe(
      `approvals of the given employee: not sent, as no answer: GET ${url}/v1/approvals: connection refused (ECONNREFUSED)`,
    );
  });

  it.runIf(HAS_OPENSSL)(
    'names the certificate problem of a server it does not trust, and the request',
    async () => {
      const server = await startSelfSignedServer();
      try {
        const url = `${server.url}/v1`;
        const { findings } = await verifyUpstream({
          approvals: {
            baseUrl: url,
            credentials: { clientId: 'c', clientSecret: 'secret-1' },
            tier: 'gold',
          },
        });
        expect(findings[0]).toMatchObject({ status: 'unobserved' });
        expect(findings[0]!.evidence).toMatch(
          new RegExp(
            `^approvals without employeeNumber: no answer: GET ${url}/approvals: the server's TLS certificate is not trusted: self[- ]signed certificate; .*NODE_EXTRA_CA_CERTS`,
          ),
        );
      } finally {
        server.close();
      }
    },
    30_000,
  );

  it.each([
    ['the default transport', {}],
    ['a fetch of the caller', { fetch: (url: string, init: RequestInit) => fetch(url, init) }],
  ])('hands on an error answer as the server sent it, through %s', async (_, transport) => {
    const body = JSON.stringify({
      code: 'data_validation',
      message: 'The scope is invalid.',
      correlationId: 'c-1',
      error: 'invalid_scope',
    });
    const upstream = await startHostileUpstream({
      '/token': (_request, response) => {
        response.writeHead(400, { 'content-type': 'application/json', 'x-trace': 't-1' }).end(body);
      },
    });
    try {
      const sender = createSender(
        upstream.url,
        'gold',
        transport as { fetch?: typeof fetch },
        undefined,
      );
      const answer = await sender.send({
        method: 'POST',
        url: `${upstream.url}/token`,
        headers: {},
      });
      expect(answer).toMatchObject({ status: 400, text: body, isJson: true });
      expect(answer).toHaveProperty('headers.x-trace', 't-1');
    } finally {
      await upstream.close();
    }
  });

  it('keeps to the tier: at bronze never two calls of a client in one second', async () => {
    const upstream = await startHostileUpstream({
      '/approvals': (request, response) => {
        const status = request.query.has('employeeNumber') ? 200 : 400;
        response
          .writeHead(status, { 'content-type': 'application/json' })
          .end(
            JSON.stringify(
              status === 200
                ? { employeeNumber: '1' }
                : { code: 'data_validation', message: 'x', correlationId: 'c' },
            ),
          );
      },
    });
    try {
      await verifyUpstream({
        approvals: {
          baseUrl: upstream.url,
          credentials: { clientId: 'paced', clientSecret: 'secret-0' },
          tier: 'bronze',
          employeeNumber: '1',
        },
        userAgent: 'acme-ci/2.1',
      });
      expect(upstream.rate.arrivals('paced')).toHaveLength(3);
      expect(upstream.rate.maxInAnyWindow('paced')).toBe(1);
      // The SDK's User-Agent, after the caller's own product.
      expect(upstream.requests[0]!.headers['user-agent']).toMatch(
        /^acme-ci\/2\.1 partner-apis-verify(\/\S+)? node\/\d+\.\d+$/,
      );
    } finally {
      await upstream.close();
    }
  });

  it('refuses a pace that is no tier, naming the option', async () => {
    await expect(
      verifyUpstream({
        approvals: {
          baseUrl: 'http://127.0.0.1:9/v1',
          credentials: { clientId: 'c', clientSecret: 'secret-1' },
          tier: 'platinum' as 'gold',
        },
      }),
    ).rejects.toThrow(/rateLimit: must be bronze, silver, gold or \{ requestsPerSecond \}/);
  });
});
