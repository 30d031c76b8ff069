import { startHostileUpstream } from '@partner-apis/testing';
import { describe, expect, it } from 'vitest';
import { callsPerSecond } from './exchange.js';
import { verifyUpstream } from './verify.js';

const TIERS = { bronze: 1, silver: 10, gold: 100 };

describe('the pace of the checks', () => {
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
      });
      expect(upstream.rate.arrivals('paced')).toHaveLength(2);
      expect(upstream.rate.maxInAnyWindow('paced')).toBe(1);
    } finally {
      await upstream.close();
    }
  });

  it('takes a tier by name or a rate, and refuses anything else', () => {
    expect(callsPerSecond('silver', TIERS)).toBe(10);
    expect(callsPerSecond({ requestsPerSecond: 2.5 }, TIERS)).toBe(2.5);
    expect(() => callsPerSecond({ requestsPerSecond: 0 }, TIERS)).toThrow(
      /bronze, silver, gold or a positive rate/,
    );
    expect(() => callsPerSecond('platinum' as 'gold', TIERS)).toThrow(TypeError);
  });
});
