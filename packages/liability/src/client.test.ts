import {
  ApiError,
  AuthenticationError,
  BadGatewayError,
  ConnectionError,
  InternalServerError,
  MethodNotAllowedError,
  NotAcceptableError,
  NotFoundError,
  RateLimitError,
  ServiceUnavailableError,
  TimeoutError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '@partner-apis/errors';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  THIRD_PARTY_LIABILITY_PRODUCT,
  createLiabilityClient,
  thirdPartyLiabilityPolicyLine,
  type LiabilityClientOptions,
  type QuoteRequest,
  type Seller,
} from './index.js';

interface Sent {
  method: string;
  url: string;
  headers: Headers;
  body: string | undefined;
}

let sb: Sandbox;
let sent: Sent[] = [];

/** The global fetch, recording what the client sends. */
const recordingFetch: typeof fetch = async (input, init) => {
  sent.push({
    method: init?.method ?? 'GET',
    url: String(input),
    headers: new Headers(init?.headers),
    body: init?.body == null ? undefined : await new Response(init.body).text(),
  });
  return fetch(input, init);
};

function client(options: Partial<LiabilityClientOptions> = {}) {
  return createLiabilityClient({
    baseUrl: sb.urls.liability,
    credentials: sb.credentials.liability,
    fetch: recordingFetch,
    retry: { baseDelayMs: 1 },
    ...options,
  });
}

const seller: Seller = { name: 'Nordlicht Home GmbH', address: { country: 'DE' } };

function quoteFor(sellerId: string): QuoteRequest {
  return {
    productId: THIRD_PARTY_LIABILITY_PRODUCT.productId,
    policyLines: [
      thirdPartyLiabilityPolicyLine({ countryOfSales: 'EU-ASIA', territoryOfSales: 'NON-US' }),
    ],
    insureds: [{ sellerId }],
  };
}

function requestsTo(route: string): number {
  return sb.stats().routes[route]?.requests ?? 0;
}

beforeAll(async () => {
  sb = await startSandbox({ seed: 6 });
});
afterAll(() => sb.close());
beforeEach(() => {
  sent = [];
  sb.resetStats();
});
afterEach(() => {
  sb.clearFaults();
  expect(sb.stats().responseViolations).toEqual([]);
});

describe('sellers and quotes against the sandbox', () => {
  it('creates a seller, quotes it, reads the quote and finds it by seller', async () => {
    const liability = client();
    const created = await liability.sellers.create(seller);
    expect(created).toMatchObject({ ...seller, sellerId: expect.stringMatching(/^SEL-/) });

    const quote = await liability.quotes.create(quoteFor(created.sellerId));
    expect(quote).toMatchObject({
      quoteId: expect.any(String),
      status: 'quoted',
      price: { amount: expect.stringMatching(/^\d+\.\d{2}$/), currency: 'EUR' },
      insureds: [{ sellerId: created.sellerId }],
    });

    await expect(liability.quotes.get(quote.quoteId)).resolves.toEqual(quote);
    await expect(liability.quotes.search({ sellerId: created.sellerId })).resolves.toEqual([quote]);
    await expect(
      liability.quotes.search({
        sellerId: created.sellerId,
        productId: THIRD_PARTY_LIABILITY_PRODUCT.productId,
        createdFrom: '2000-01-01T00:00:00Z',
        createdTo: '2000-01-02T00:00:00+01:00',
      }),
    ).resolves.toEqual([]);
  });

  it('sends Basic auth of client_id:client_secret, a fresh request id and one conversation id', async () => {
    const liability = client();
    const { sellerId } = await liability.sellers.create(seller);
    await liability.quotes.create(quoteFor(sellerId));
    await liability.quotes.search();

    const { clientId, clientSecret } = sb.credentials.liability;
    const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
    expect(sent.map((s) => s.headers.get('authorization'))).toEqual([basic, basic, basic]);
    const requestIds = sent.map((s) => s.headers.get('x-z-request-id'));
    expect(new Set(requestIds).size).toBe(3);
    expect(sent.map((s) => s.headers.get('x-z-conversation-id'))).toEqual([
      liability.conversationId,
      liability.conversationId,
      liability.conversationId,
    ]);
    expect(liability.conversationId).toMatch(/^[0-9a-f-]{36}$/);
    const elsewhere = sent.flatMap((s) => [
      s.url,
      s.body ?? '',
      ...[...s.headers].filter(([name]) => name !== 'authorization').map(([, v]) => v),
    ]);
    expect(elsewhere.join('\n')).not.toContain(clientSecret);
  });

  it('takes the conversation id from the client, a conversation() or the call', async () => {
    const liability = client({ conversationId: 'broker-flow-7' });
    const flow = liability.conversation();
    const named = liability.conversation('onboarding-42');
    const { sellerId } = await flow.sellers.create(seller);
    await flow.quotes.create(quoteFor(sellerId));
    await named.quotes.search({ sellerId });
    await liability.quotes.search({ sellerId }, { conversationId: 'one-off' });
    await liability.quotes.search({ sellerId });
    await liability.raw.GET('/quotes');

    expect(flow.conversationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(named.conversationId).toBe('onboarding-42');
    expect(sent.map((s) => s.headers.get('x-z-conversation-id'))).toEqual([
      flow.conversationId,
      flow.conversationId,
      'onboarding-42',
      'one-off',
      'broker-flow-7',
      'broker-flow-7',
    ]);
  });

  it('forces manual referral on a copy of the request', async () => {
    const liability = client();
    const { sellerId } = await liability.sellers.create(seller);
    const request: QuoteRequest = {
      ...quoteFor(sellerId),
      underwritingInformation: { agentUsername: 'jdoe.broker' },
    };
    const quote = await liability.quotes.create(request, { forceManualReferral: true });
    expect(quote.status).toBe('referred');
    expect(quote.referrals).toContainEqual(
      expect.objectContaining({ code: 'MANUAL_REFERRAL_REQUESTED' }),
    );
    expect(JSON.parse(sent.at(-1)?.body ?? '{}')).toMatchObject({
      underwritingInformation: { agentUsername: 'jdoe.broker', forceManualReferral: true },
    });
    expect(request.underwritingInformation).toEqual({ agentUsername: 'jdoe.broker' });
  });

  it('aborts a call when its signal aborts', async () => {
    const controller = new AbortController();
    controller.abort(new Error('the user left'));
    await expect(client().quotes.search({}, { signal: controller.signal })).rejects.toThrow(
      'the user left',
    );
  });
});

describe('errors from the sandbox', () => {
  it('400: a ValidationError whose causes point into the request', async () => {
    const liability = client();
    const error = await liability.quotes.create(quoteFor('SEL-999999')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const [cause] = (error as ValidationError).causes;
    expect(cause).toMatchObject({
      field: '/insureds/0/sellerId',
      pointer: ['insureds', '0', 'sellerId'],
      value: 'SEL-999999',
    });
    expect((error as ValidationError).correlationId).toEqual(expect.any(String));
  });

  it('401: an AuthenticationError with the correlation id, and no secret anywhere', async () => {
    const wrong = { clientId: sb.credentials.liability.clientId, clientSecret: 'not-the-secret' };
    const error = await client({ credentials: wrong })
      .quotes.search()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'authentication_error' });
    expect((error as AuthenticationError).correlationId).toEqual(expect.any(String));
    expect((error as AuthenticationError).requestId).toBe(sent[0]?.headers.get('x-z-request-id'));
    const shown = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`;
    expect(shown).not.toContain('not-the-secret');
  });

  it('404: a NotFoundError for an unknown quote', async () => {
    const error = await client()
      .quotes.get('QTE-2026-9999999')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, method: 'GET' });
  });

  it('503 on a read: retried, then answered', async () => {
    sb.fault('liability.searchQuotes', { sequence: [503, 503] });
    await expect(client().quotes.search()).resolves.toEqual(expect.any(Array));
    expect(sb.stats().routes['liability.searchQuotes']).toMatchObject({ requests: 3, faults: 2 });
  });

  it('503 on a POST after it was sent: thrown, never sent twice', async () => {
    const liability = client();
    const { sellerId } = await liability.sellers.create(seller);
    sb.fault('liability.createQuote', { sequence: [503] });
    const error = await liability.quotes.create(quoteFor(sellerId)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(requestsTo('liability.createQuote')).toBe(1);
    const posts = sent.filter((s) => s.method === 'POST' && s.url.endsWith('/quotes'));
    expect(posts).toHaveLength(1);
    expect((error as ServiceUnavailableError).requestId).toBe(
      posts[0]?.headers.get('x-z-request-id'),
    );
  });

  it('503 on a POST with retry.retryWrites: sent again, with a new request id', async () => {
    const liability = client({ retry: { baseDelayMs: 1, retryWrites: true } });
    const { sellerId } = await liability.sellers.create(seller);
    sb.fault('liability.createQuote', { sequence: [503] });
    await expect(liability.quotes.create(quoteFor(sellerId))).resolves.toHaveProperty('quoteId');
    expect(requestsTo('liability.createQuote')).toBe(2);
    const [first, second] = sent.filter((s) => s.url.endsWith('/quotes'));
    expect(first?.headers.get('x-z-request-id')).not.toBe(second?.headers.get('x-z-request-id'));
  });

  it('429 on a POST: sent again after Retry-After, since the service did nothing', async () => {
    const liability = client({ retry: { baseDelayMs: 1, maxRetryAfterMs: 5 } });
    sb.fault('liability.createSeller', { sequence: [429] });
    await expect(liability.sellers.create(seller)).resolves.toHaveProperty('sellerId');
    expect(sb.stats().routes['liability.createSeller']).toMatchObject({
      requests: 2,
      tooManyRequests: 1,
    });
  });

  it('429 once attempts are used up: a RateLimitError with retryAfterMs', async () => {
    sb.fault('liability.getQuote', { sequence: [429] });
    const error = await client({ retry: { attempts: 1 } })
      .quotes.get('QTE-2026-0000001')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(1000);
  });

  it.each([
    [500, InternalServerError],
    ['html502', BadGatewayError],
    [503, ServiceUnavailableError],
  ] as const)('%s once attempts are used up: %o', async (action, ErrorClass) => {
    sb.fault('liability.searchQuotes', { sequence: [action] });
    const error = await client({ retry: { attempts: 1 } })
      .quotes.search()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiError);
  });

  it('a reset connection on a POST: a ConnectionError, not sent again', async () => {
    sb.fault('liability.createSeller', { sequence: ['reset'] });
    const error = await client()
      .sellers.create(seller)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).requestMayHaveBeenSent).toBe(true);
    expect(requestsTo('liability.createSeller')).toBe(1);
  });

  it('a slow answer: a TimeoutError of the attempt', async () => {
    sb.fault('liability.searchQuotes', { latencyMs: 2000 });
    const error = await client({ timeout: { attemptMs: 50 }, retry: { attempts: 1 } })
      .quotes.search()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ scope: 'attempt', timeoutMs: 50 });
  });

  it('405, 406 and 415 through raw', async () => {
    const { raw } = client();
    const notAllowed = await raw
      .GET('/parties/sellers' as never, {} as never)
      .catch((e: unknown) => e);
    expect(notAllowed).toBeInstanceOf(MethodNotAllowedError);
    const notAcceptable = await raw
      .GET('/quotes', { headers: { accept: 'text/csv' } })
      .catch((e: unknown) => e);
    expect(notAcceptable).toBeInstanceOf(NotAcceptableError);
    const unsupported = await raw
      .POST('/parties/sellers', {
        body: seller,
        bodySerializer: () => 'name=Nordlicht',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      .catch((e: unknown) => e);
    expect(unsupported).toBeInstanceOf(UnsupportedMediaTypeError);
  });
});

describe('createLiabilityClient and options it does not know', () => {
  it('tells the logger of a slip, and knows conversationId and rateLimit', () => {
    const warnings: string[] = [];
    const options = {
      baseUrl: sb.urls.liability,
      credentials: sb.credentials.liability,
      conversationId: 'conversation-1',
      rateLimit: 'gold' as const,
      logger: { warn: (message: string) => warnings.push(message) },
      conversationID: 'conversation-2',
    };
    createLiabilityClient(options);
    expect(warnings).toEqual([
      'unknown option conversationID is ignored; did you mean conversationId?',
    ]);
  });
});
