import { ConfigurationError, InvalidArgumentError } from '@partner-apis/errors';
import { describe, expect, it } from 'vitest';
import {
  THIRD_PARTY_LIABILITY_PRODUCT,
  createLiabilityClient,
  type LiabilityClientOptions,
  type QuoteRequest,
} from './index.js';

const credentials = { clientId: 'client-7f3a', clientSecret: 's3cr3t-value-9c1d' };
let calls = 0;
const countingFetch: typeof fetch = () => {
  calls += 1;
  return Promise.resolve(Response.json([]));
};
const options: LiabilityClientOptions = {
  baseUrl: 'https://liability.example.com/v1/uat',
  credentials,
  fetch: countingFetch,
};

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('createLiabilityClient refuses bad options, naming them', () => {
  it.each([
    ['baseUrl', { baseUrl: 'http://liability.example.com/v1' }, 'baseUrl: must use https'],
    ['baseUrl', { baseUrl: undefined }, 'baseUrl: must be an absolute https URL'],
    ['credentials', { credentials: undefined }, 'credentials: must be an object'],
    [
      'credentials.clientSecret',
      { credentials: { clientId: 'client-7f3a', clientSecret: '' } },
      'credentials.clientSecret: must be a non-empty string',
    ],
    [
      'credentials.clientId',
      { credentials: { clientId: 'a:b', clientSecret: 'x' } },
      'credentials.clientId: must not contain ":"',
    ],
    [
      'credentials.secretExpiresAt',
      { credentials: { ...credentials, secretExpiresAt: 'next year' } },
      'credentials.secretExpiresAt: must be a valid date',
    ],
    ['conversationId', { conversationId: 'a\r\nb' }, 'conversationId: must be a non-empty'],
    ['conversationId', { conversationId: '' }, 'conversationId: must be a non-empty'],
    ['rateLimit', { rateLimit: 'platinum' }, 'rateLimit: must be bronze, silver, gold'],
    ['retry.attempts', { retry: { attempts: 11 } }, 'retry.attempts: must be an integer'],
    ['timeout.attemptMs', { timeout: { attemptMs: 0 } }, 'timeout.attemptMs: must be a number'],
    ['userAgent', { userAgent: 'a\nb' }, 'userAgent: must be a non-empty string'],
  ])('%s', (option, override, message) => {
    const error = thrown(() =>
      createLiabilityClient({ ...options, ...override } as LiabilityClientOptions),
    );
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ option });
    expect((error as Error).message).toContain(message);
    expect(JSON.stringify(error) + String(error)).not.toContain(credentials.clientSecret);
  });

  it('refuses a missing options object', () => {
    expect(thrown(() => createLiabilityClient(undefined as never))).toMatchObject({
      name: 'ConfigurationError',
      option: 'options',
    });
  });
});

describe('calls refuse bad arguments before any request', () => {
  const client = createLiabilityClient(options);
  const quote: QuoteRequest = {
    productId: THIRD_PARTY_LIABILITY_PRODUCT.productId,
    policyLines: [],
    insureds: [{ sellerId: 'SEL-000001' }],
  };

  it.each([
    ['quotes.get', 'quoteId', () => client.quotes.get('')],
    ['quotes.get', 'quoteId', () => client.quotes.get(undefined as never)],
    ['quotes.get', 'quoteId', () => client.quotes.get('..')],
    ['quotes.get', 'quoteId', () => client.quotes.get('.')],
    ['quotes.search', 'params', () => client.quotes.search('SEL-1' as never)],
    ['quotes.search', 'params', () => client.quotes.search([] as never)],
    ['quotes.search', 'seller', () => client.quotes.search({ seller: 'x' } as never)],
    ['quotes.search', 'sellerId', () => client.quotes.search({ sellerId: {} } as never)],
    ['quotes.search', 'options', () => client.quotes.search({}, 'x' as never)],
    [
      'quotes.search',
      'options.signal',
      () => client.quotes.search({}, { signal: 'abort' as never }),
    ],
    [
      'quotes.search',
      'options.conversationId',
      () => client.quotes.search({}, { conversationId: 'a\nb' }),
    ],
    ['sellers.create', 'body', () => client.sellers.create(null as never)],
    ['quotes.create', 'body', () => client.quotes.create('quote' as never)],
    [
      'quotes.create',
      'options.forceManualReferral',
      () => client.quotes.create(quote, { forceManualReferral: 'yes' as never }),
    ],
    ['conversation', 'conversationId', () => client.conversation('')],
  ])('%s: %s', async (operation, argument, call) => {
    const before = calls;
    const error = await (async () => call())().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({ operation, argument });
    expect((error as Error).message).toMatch(new RegExp(`^${operation}: ${argument} `));
    expect(calls).toBe(before);
  });

  it('names the filters it knows when one is unknown', async () => {
    await expect(client.quotes.search({ status: 'quoted' } as never)).rejects.toThrow(
      'quotes.search: status is not a parameter of quotes.search (use sellerId, productId, createdFrom, createdTo)',
    );
  });

  it.each([
    [{ sellerId: '' }, 'sellerId must be a non-empty string'],
    [{ sellerId: 7 }, 'sellerId must be a string (got 7)'],
    [{ createdFrom: 'today' }, 'createdFrom must be a Date or an RFC 3339 date-time'],
    [{ createdTo: '2026-03-01' }, 'createdTo must be a Date or an RFC 3339 date-time'],
  ])(
    'sends the filters %j, whose names and formats the spec only assumes, with a warning',
    async (filters, warning) => {
      const warnings: string[] = [];
      const warned = createLiabilityClient({
        ...options,
        logger: { warn: (message: string) => warnings.push(message) },
      });
      const before = calls;
      await warned.quotes.search(filters as never);
      expect(calls).toBe(before + 1);
      expect(warnings.join('\n')).toContain(`quotes.search: ${warning}`);
      const refusing = createLiabilityClient({ ...options, assumptions: 'refuse' });
      await expect(refusing.quotes.search(filters as never)).rejects.toBeInstanceOf(
        InvalidArgumentError,
      );
      expect(calls).toBe(before + 1);
    },
  );

  it('accepts RFC 3339 date-times with an offset or fraction or a Date, and skips undefined filters', async () => {
    const before = calls;
    await client.quotes.search({
      createdFrom: '2026-03-01T00:00:00.5+01:00',
      createdTo: '2026-03-02T00:00:00Z',
      sellerId: undefined,
    });
    await client.quotes.search({ createdFrom: new Date('2026-03-01T00:00:00Z') as never });
    expect(calls).toBe(before + 2);
  });
});
