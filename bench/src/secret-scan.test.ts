import { describe, expect, it } from 'vitest';
import { findSecrets } from './secret-scan.js';

describe('findSecrets', () => {
  const pair = { clientId: 'client-1', clientSecret: 's3cret:+é' };

  it('counts every occurrence and masks the secret in the examples', () => {
    const hits = findSecrets(
      ['token s3cret:+é and again s3cret:+é', 'clean line'],
      [pair.clientSecret],
      [],
    );
    expect(hits.count).toBe(2);
    expect(hits.examples[0]).toContain('***');
    expect(hits.examples.join('')).not.toContain(pair.clientSecret);
  });

  it('finds a Basic credential built from a pair, plain or URL-encoded', () => {
    const plain = Buffer.from('client-1:s3cret:+é').toString('base64');
    const encoded = Buffer.from(`client-1:${encodeURIComponent('s3cret:+é')}`).toString('base64');
    const hits = findSecrets([`Authorization: Basic ${plain}`, `Basic ${encoded}`], [], [pair]);
    expect(hits.count).toBe(2);
  });

  it('finds nothing in texts without secrets', () => {
    expect(findSecrets(['GET /locations 200'], [pair.clientSecret], [pair])).toEqual({
      count: 0,
      examples: [],
    });
  });
});
