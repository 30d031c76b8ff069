import { startStrictUpstream, type StrictUpstream } from '@partner-apis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyUpstream } from './verify.js';

let upstream: StrictUpstream;
beforeAll(async () => {
  upstream = await startStrictUpstream();
});
afterAll(() => upstream.close());

describe('what cannot be observed', () => {
  it('with refused credentials, contradicts nothing and says why each guess stays open', async () => {
    const { findings } = await verifyUpstream({
      exposure: {
        baseUrl: upstream.urls.exposure,
        tokenUrl: upstream.urls.tokenUrl,
        credentials: { ...upstream.credentials.exposure, clientSecret: 'not-the-secret' },
        rateLimit: 'gold',
      },
    });
    expect(findings.filter((f) => f.status === 'contradicted')).toEqual([]);
    expect(findings).toContainEqual(
      expect.objectContaining({
        spec: 'common',
        pointer: '/components/parameters/Offset/x-upstream-gap',
        status: 'unobserved',
        evidence:
          "listLocations: not read, as the token endpoint answered 401 to exposure's token request",
      }),
    );
    expect(findings).toContainEqual(
      expect.objectContaining({
        pointer: '/paths/~1login~1connect~1token/post/x-upstream-gap',
        status: 'unobserved',
        evidence: expect.stringMatching(
          /refused the credentials .*: the client ID, secret or key may be wrong/,
        ),
      }),
    );
  });

  it("stops when its signal is aborted, with the signal's reason", async () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped by the caller'));
    await expect(
      verifyUpstream({
        approvals: {
          baseUrl: upstream.urls.approvals,
          credentials: upstream.credentials.approvals,
        },
        signal: controller.signal,
      }),
    ).rejects.toThrow('stopped by the caller');
    expect(upstream.requests.filter((r) => r.path.startsWith('/approvals'))).toEqual([]);
  });
});
