import { ConnectionError } from '@partner-apis/errors';
import {
  HAS_OPENSSL,
  refusedUrl,
  startConnectProxy,
  TunnelAgent,
  startSelfSignedServer,
} from '@partner-apis/testing';
import { describe, expect, it } from 'vitest';
import { createClientPipeline, type PipelineOptions } from '../index.js';

/** The error of one POST to `url` through a pipeline of `options`, with no retry. */
async function failureOf(url: string, options: Partial<PipelineOptions> = {}) {
  const pipeline = createClientPipeline({ baseUrl: url, retry: { attempts: 1 }, ...options });
  const error: unknown = await pipeline
    .execute({
      method: 'POST',
      url: `${url}/quotes`,
      headers: new Headers(),
      body: '{}',
      signal: undefined,
    })
    .then(
      () => undefined,
      (reason: unknown) => reason,
    );
  expect(error).toBeInstanceOf(ConnectionError);
  return error as ConnectionError;
}

/** A `fetch` that fails as undici's does, with `cause` below its `fetch failed`. */
const failingFetch = (cause: Error) =>
  (() => Promise.reject(new TypeError('fetch failed', { cause }))) as unknown as typeof fetch;

describe('a failure names its cause', () => {
  it('names a proxy that refuses the connection as the proxy, through an agent of the node:http transport', async () => {
    const dead = new URL(await refusedUrl());
    const target = await startConnectProxy(); // a live host:port for the request itself
    try {
      const error = await failureOf(target.url, { agent: new TunnelAgent(Number(dead.port)) });
      expect(error.message).toBe(
        `POST ${target.url}/quotes: the proxy 127.0.0.1:${dead.port}: connection refused (ECONNREFUSED)`,
      );
      expect(error.requestMayHaveBeenSent).toBe(false);
    } finally {
      target.close();
    }
  });

  it('does not take the request’s own host for a proxy', async () => {
    const url = await refusedUrl();
    const error = await failureOf(url);
    expect(error.message).toBe(`POST ${url}/quotes: connection refused (ECONNREFUSED)`);
  });

  it('names a proxy whose host name cannot be resolved', async () => {
    const lookup = Object.assign(new Error('getaddrinfo ENOTFOUND proxy.corp.invalid'), {
      code: 'ENOTFOUND',
      hostname: 'proxy.corp.invalid',
    });
    const error = await failureOf('https://liability.example.com/v1/uat', {
      fetch: failingFetch(lookup),
    });
    expect(error.message).toBe(
      'POST https://liability.example.com/v1/uat/quotes: the proxy proxy.corp.invalid: host not found (ENOTFOUND)',
    );
    expect(error.mayHaveTakenEffect).toBe(false);
  });

  it('names a proxy that refuses the tunnel with a status', async () => {
    const refused = Object.assign(new Error('Proxy response (407) !== 200 when HTTP Tunneling'), {
      code: 'UND_ERR_ABORTED',
    });
    const error = await failureOf('https://liability.example.com/v1/uat', {
      fetch: failingFetch(refused),
    });
    expect(error.message).toBe(
      'POST https://liability.example.com/v1/uat/quotes: the proxy answered 407 to the tunnel (CONNECT) (UND_ERR_ABORTED)',
    );
    expect(error.mayHaveTakenEffect).toBe(false);
  });

  it.runIf(HAS_OPENSSL)(
    'names an untrusted certificate and NODE_EXTRA_CA_CERTS, and says nothing was sent',
    async () => {
      const server = await startSelfSignedServer();
      try {
        const error = await failureOf(server.url);
        expect(error.message).toMatch(
          /: the server's TLS certificate is not trusted: self[- ]signed certificate; .*NODE_EXTRA_CA_CERTS=\/path\/to\/ca\.pem; otherwise check the address \(DEPTH_ZERO_SELF_SIGNED_CERT\)$/,
        );
        expect(error.mayHaveTakenEffect).toBe(false);
        expect(error.message).not.toMatch(/may have reached the server/);
      } finally {
        server.close();
      }
    },
    30_000,
  );
});
