import { randomUUID } from 'node:crypto';
import { basicAuthorization } from '@partner-apis/auth';
import { at, mediaSchema, modelOf, pointer, resolve, validate } from './documents.js';
import { recordFieldsFinding, recordsPlaceFinding } from './records.js';
import type { Answer, Failed } from './send.js';
import type { Observed, Run } from './run.js';
import type { Expectation, LiabilityTarget } from './types.js';

type Json = Record<string, unknown>;

const SEARCH_RESULT = '/components/schemas/QuoteSearchResult';
const SELLER_CREATED = '/components/schemas/SellerCreated/x-upstream-gap';
const CREATE_QUOTE = pointer('paths', '/quotes', 'post', 'responses', '2XX', 'x-upstream-gap');
const READ_QUOTE = pointer(
  'paths',
  '/quotes/{quoteId}',
  'get',
  'responses',
  '2XX',
  'x-upstream-gap',
);
const UNKNOWN_QUOTE = pointer('paths', '/quotes/{quoteId}', 'get', 'x-upstream-gap');

/** What the checks of a write's answer expect. */
const ANSWER: Expectation = {
  confirm: "a 2xx answer that meets the spec's schema",
  contradict: 'one that breaks it',
};
const UNKNOWN_QUOTE_CHECK = {
  spec: 'liability',
  pointer: UNKNOWN_QUOTE,
  toldApart: true,
  expects: {
    confirm: 'a quote that does not exist refused with a 4xx',
    contradict: 'such a quote answered with a 2xx',
  },
} as const;

/** How far back the read-only quote search looks: small by construction, yet not empty. */
const SEARCH_DAYS = 1;

/** Host labels and path segments that name an environment where test writes belong. */
const TEST_ENVIRONMENTS = new Set([
  'uat',
  'sandbox',
  'mock',
  'test',
  'testing',
  'dev',
  'acc',
  'acceptance',
  'preprod',
  'staging',
  'qa',
]);

/**
 * Whether writes may go to `url`: a loopback address, or one whose host labels or path segments
 * name a test environment. Anything else counts as production.
 *
 * @example
 * isTestAddress('https://liability.example/v1/uat'); // true
 * isTestAddress('https://liability.example/v1'); // false
 */
export function isTestAddress(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1' || /^127\./.test(host)) return true;
  const words = [...host.split('.'), ...parsed.pathname.split('/')].flatMap((w) =>
    w.toLowerCase().split('-'),
  );
  return words.some((word) => TEST_ENVIRONMENTS.has(word));
}

/**
 * Checks the liability service: a quote search, the answer for an unknown quote, and with
 * `allowWrites` on a test address the creation of a seller and a search for its quotes.
 *
 * @example
 * await checkLiability(run, { baseUrl, credentials, allowWrites: true }, secrets);
 */
export async function checkLiability(
  run: Run,
  target: LiabilityTarget,
  secrets: Set<string>,
): Promise<void> {
  const document = run.documents.liability as Json;
  const sender = run.sender(target.baseUrl, target.rateLimit, document);
  const { clientId, clientSecret } = target.credentials;
  const basic = basicAuthorization(clientId, clientSecret, 'plain');
  // The secret, the header, its base64 and the pair it encodes: a server may echo any of them.
  for (const secret of [clientSecret, basic, basic.slice(6), `${clientId}:${clientSecret}`])
    secrets.add(secret);
  const conversation = randomUUID();
  const baseUrl = target.baseUrl.replace(/\/+$/, '');
  const send = (path: string, method: 'get' | 'post', url: string, why: string, body?: unknown) =>
    run.call(
      sender,
      { spec: 'liability', path, method },
      {
        method: method.toUpperCase(),
        url: `${baseUrl}${url}`,
        headers: {
          authorization: basic,
          'x-z-conversation-id': conversation,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      why,
      (a) => a.status < 300,
    );

  /** The finding on a 2xx answer of an operation: its body against the spec's schema. */
  const judge = (
    marker: string,
    what: string,
    path: string,
    method: 'get' | 'post',
    answer: Answer | Failed,
  ): Json | undefined => {
    const base = { spec: 'liability' as const, pointer: marker, expects: ANSWER };
    if ('failed' in answer || answer.status >= 300) {
      const seen = 'failed' in answer ? answer.failed : `answered ${answer.status}`;
      run.add({ ...base, status: 'unobserved', evidence: `${what}: ${seen}` });
      return undefined;
    }
    const schema = mediaSchema(document, at(document, 'paths', path, method, 'responses', '2XX'));
    const problems = answer.isJson
      ? validate(document, schema, answer.json)
      : ['the answer is not JSON'];
    run.add(
      problems.length === 0
        ? {
            ...base,
            status: 'confirmed',
            evidence: `${what} answered ${answer.status}, as the spec assumes`,
          }
        : {
            ...base,
            status: 'contradicted',
            evidence: `${what} answered ${answer.status}: ${problems.slice(0, 6).join('; ')}`,
          },
    );
    return answer.isJson && typeof answer.json === 'object' && answer.json !== null
      ? (answer.json as Json)
      : undefined;
  };

  let sellerId: string | undefined;
  run.begin('liability');
  run.progress('liability: quote search, an unknown quote, and writes when allowed');
  if (target.allowWrites === true && isTestAddress(baseUrl)) {
    const example = (name: string) => at(document, 'components', 'examples', name).value;
    const seller = judge(
      SELLER_CREATED,
      'seller creation',
      '/parties/sellers',
      'post',
      await send(
        '/parties/sellers',
        'post',
        '/parties/sellers',
        'a seller created from the spec example',
        example('MarketplaceSeller'),
      ),
    );
    if (typeof seller?.sellerId !== 'string') {
      const evidence = 'not tried, as no seller was created';
      for (const marker of [CREATE_QUOTE, READ_QUOTE])
        run.add({
          spec: 'liability',
          pointer: marker,
          expects: ANSWER,
          status: 'unobserved',
          evidence,
        });
    } else {
      sellerId = seller.sellerId;
      // The spec's example quote request, for the new seller.
      const request = {
        ...(example('ThirdPartyLiabilityQuoteRequest') as Json),
        insureds: [{ sellerId }],
      };
      const quote = judge(
        CREATE_QUOTE,
        'quote creation',
        '/quotes',
        'post',
        await send('/quotes', 'post', '/quotes', "a quote for it from the spec's example", request),
      );
      if (typeof quote?.quoteId !== 'string') {
        const evidence = 'a read of that quote: not tried, as no quote was created';
        run.add({
          spec: 'liability',
          pointer: READ_QUOTE,
          expects: ANSWER,
          status: 'unobserved',
          evidence,
        });
      } else {
        judge(
          READ_QUOTE,
          'a read of that quote',
          '/quotes/{quoteId}',
          'get',
          await send(
            '/quotes/{quoteId}',
            'get',
            `/quotes/${encodeURIComponent(quote.quoteId)}`,
            'a read of the quote created',
          ),
        );
      }
    }
  } else {
    const why =
      target.allowWrites === true
        ? `${baseUrl} names no test environment, so nothing was written`
        : 'writes are not allowed (allowWrites), so no seller was created';
    for (const marker of [SELLER_CREATED, CREATE_QUOTE, READ_QUOTE])
      run.add({
        spec: 'liability',
        pointer: marker,
        expects: ANSWER,
        status: 'skipped',
        evidence: why,
      });
  }

  // A search small by construction: one new seller's quotes, or the quotes of the last day.
  const since = new Date(Date.now() - SEARCH_DAYS * 86_400_000);
  const filter: Record<string, string> =
    sellerId === undefined ? { createdFrom: since.toISOString() } : { sellerId };
  const search = await send(
    '/quotes',
    'get',
    `/quotes?${new URLSearchParams(filter)}`,
    `a quote search by ${Object.keys(filter)[0]}`,
  );
  const bodies = !('failed' in search) && search.status < 300 && search.isJson ? [search.json] : [];
  const media = at(
    document,
    'paths',
    '/quotes',
    'get',
    'responses',
    '2XX',
    'content',
    'application/json',
  );
  // A search answers a bare array of quotes: what the model reads of its answer.
  const read = modelOf(document).operations.find((o) => o.operationId === 'searchQuotes');
  const promised = read?.success?.type === 'array' ? resolve(document, read.success.schema) : {};
  const expected = { place: { kind: 'array' } as const, items: (promised as Json).items };
  const { finding, records } = recordsPlaceFinding(
    {
      spec: 'liability',
      marker: `${SEARCH_RESULT}/x-upstream-gap`,
      schema: SEARCH_RESULT,
      examples: pointer(
        'paths',
        '/quotes',
        'get',
        'responses',
        '2XX',
        'content',
        'application/json',
        'examples',
      ),
      description: String(
        at(document, 'components', 'schemas', 'QuoteSearchResult').description ?? '',
      ),
      markerInSchema: true,
    },
    at(media, 'examples'),
    expected,
    bodies,
    'liability searchQuotes',
  );
  run.add(finding);
  run.add(
    recordFieldsFinding(
      document,
      {
        spec: 'liability',
        marker: '/components/schemas/Quote/x-upstream-gap',
        schema: '/components/schemas/Quote',
      },
      expected.items,
      records,
      'liability searchQuotes',
      bodies.length > 0,
    ),
  );

  const unknown = (id: string) =>
    send('/quotes/{quoteId}', 'get', `/quotes/${id}`, 'a read of a quote that does not exist');
  const answer = await unknown('QTE-VERIFY-UNKNOWN');
  // A quote for an id nobody made may be a mocking service's fixed answer: another id tells.
  const again =
    'failed' in answer || answer.status >= 300 ? undefined : await unknown('QTE-VERIFY-OTHER');
  const fixed =
    again !== undefined &&
    !('failed' in again) &&
    !('failed' in answer) &&
    again.text === answer.text;
  run.add(unknownQuoteFinding(answer, fixed));
  if (fixed) run.indiscriminate('liability', ['any quote id']);
}

function unknownQuoteFinding(answer: Answer | Failed, fixed: boolean): Observed {
  const base = UNKNOWN_QUOTE_CHECK;
  if ('failed' in answer) {
    return {
      ...base,
      status: 'unobserved',
      evidence: `a read of a quote that does not exist: ${answer.failed}`,
    };
  }
  if (fixed) {
    return {
      ...base,
      status: 'unobserved',
      evidence: `two quotes that do not exist were answered ${answer.status} with the same body, so a quote id is not told apart`,
    };
  }
  if (
    answer.status >= 400 &&
    answer.status < 500 &&
    answer.status !== 401 &&
    answer.status !== 429
  ) {
    return {
      ...base,
      status: 'confirmed',
      evidence: `a quote that does not exist was answered ${answer.status}`,
    };
  }
  if (answer.status < 300) {
    return {
      ...base,
      status: 'contradicted',
      evidence: `a quote that does not exist was answered ${answer.status}`,
    };
  }
  return {
    ...base,
    status: 'unobserved',
    evidence: `a quote that does not exist was answered ${answer.status}`,
  };
}
