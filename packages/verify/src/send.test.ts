import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, type ClientRequestArgs } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { promisify } from 'node:util';
import { startSandbox } from '@partner-apis/sandbox';
import { refusedUrl, startConnectProxy, startHostileUpstream } from '@partner-apis/testing';
import { describe, expect, it } from 'vitest';
import { verifyUpstream } from './verify.js';

/** An `http.Agent` that opens each connection through the CONNECT tunnel of a proxy. */
class TunnelAgent extends Agent {
  constructor(private readonly proxyPort: number) {
    super({ keepAlive: false });
  }

  override createConnection(
    options: ClientRequestArgs,
    done?: (error: Error | null, socket: Duplex) => void,
  ): undefined {
    const socket = connect(this.proxyPort, '127.0.0.1', () => {
      socket.write(`CONNECT ${options.host}:${options.port} HTTP/1.1\r\n\r\n`);
      socket.once('data', (reply: Buffer) =>
        /^HTTP\/1\.1 200/.test(reply.toString())
          ? done?.(null, socket)
          : done?.(new Error('the proxy refused the tunnel'), socket),
      );
    });
    socket.once('error', (error) => done?.(error, socket));
    return undefined;
  }
}

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

  it.runIf(existsSync('/usr/bin/openssl'))(
    'names the TLS error of a certificate it does not trust, and the request',
    async () => {
      const keys = await mkdtemp(join(tmpdir(), 'verify-tls-'));
      const server = createTlsServer();
      try {
        await promisify(execFile)(
          '/usr/bin/openssl',
          [
            'req',
            '-x509',
            '-newkey',
            'rsa:2048',
            '-nodes',
            '-keyout',
            'key.pem',
            '-out',
            'cert.pem',
            '-days',
            '1',
            '-subj',
            '/CN=127.0.0.1',
          ],
          { cwd: keys },
        );
        server.setSecureContext({
          key: await readFile(join(keys, 'key.pem')),
          cert: await readFile(join(keys, 'cert.pem')),
        });
        server.on('request', (_, answer) => answer.end('{}'));
        server.listen(0, '127.0.0.1');
        await once(server, 'listening');
        const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
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
            `^approvals without employeeNumber: no answer: GET ${url}/approvals: .*self[- ]signed certificate`,
          ),
        );
      } finally {
        server.close();
        await rm(keys, { recursive: true, force: true });
      }
    },
  );

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
      expect(upstream.rate.arrivals('paced')).toHaveLength(2);
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
