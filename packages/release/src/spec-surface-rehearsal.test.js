// @ts-check
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyWorkspace } from './spec-change-rehearsal.js';

/**
 * What OpenAPI 3.1 states plainly reaches users with a spec edit alone: parameters in the
 * header and a cookie, bodies and answers of any media type (multipart with files, a form,
 * bytes; text and bytes back), an API key in a cookie on data and token requests alike, and
 * names from operationIds of any style. A strict stand-in refuses anything else.
 */
const KEY = 'key-in-a-cookie-5';
const PDF = '%PDF-1.7 receipt';

/** The consumer: compiled with `tsc --strict`, so every new name must be typed, then run. */
const CONSUMER = `
import { createExposureClient } from '@partner-apis/exposure';
import { createLiabilityClient, type DateModel, type QuotesSearchParams } from '@partner-apis/liability';

const base = '__BASE_URL__';
const failure = (action: () => unknown) =>
  Promise.resolve().then(action).then(() => 'sent', (error: Error) => error.message);

const liability = createLiabilityClient({
  baseUrl: base + '/v1',
  credentials: { clientId: 'client-7', clientSecret: 'secret-of-the-rehearsal' },
});
const params: QuotesSearchParams = { sellerId: 'S-1', 'X-Marketplace-Id': 'M-42', session: 's 1' };
const found = await liability.quotes.search(params);
const history = await liability.quoteHistories.get('Q-1');
const notes: string = await liability.quoteNotes.list();
const day: DateModel = (await liability.quoteArchive.archive('Q-1')).archivedOn;
const otherSearch = await liability.quotes.searchQuotes();
const noted: void = await liability.quoteNotes.add('Q-1', { text: 'call back', tags: ['a', 'b'] });

const exposure = createExposureClient({
  baseUrl: base,
  tokenUrl: base + '/token',
  credentials: {
    clientId: 'client-7',
    clientSecret: 'secret-of-the-rehearsal',
    subscriptionKeys: { primary: '${KEY}' },
  },
});
const receipt: Blob = await exposure.statementOfValuesFiles.upload({
  portfolio: new Blob(['street,city\\nA 1,Hamburg\\n']),
  scan: new Uint8Array([1, 2, 3]),
  note: 'second quarter',
});
const replaced: string = await exposure.statementOfValuesFiles.replace('F-1', new Uint8Array([104, 105]));

console.log(JSON.stringify({
  found,
  history,
  notes,
  day,
  otherSearch,
  noted: noted === undefined,
  receipt: { type: receipt.type, text: await receipt.text() },
  replaced,
  badHeader: await failure(() => liability.quotes.search({ 'X-Marketplace-Id': 'Q-42' })),
  badFile: await failure(() => exposure.statementOfValuesFiles.upload({ portfolio: 42 as never })),
}));
`;

/** @type {{ method?: string, url?: string, headers: import('node:http').IncomingHttpHeaders, body: Buffer }[]} */
const seen = [];

const server = createServer((request, response) => {
  const chunks = /** @type {Buffer[]} */ ([]);
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', async () => {
    const body = Buffer.concat(chunks);
    seen.push({ method: request.method, url: request.url, headers: request.headers, body });
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const reply = (
      /** @type {number} */ status,
      /** @type {string} */ type,
      /** @type {string} */ text,
    ) => {
      response.writeHead(status, type === '' ? {} : { 'content-type': type }).end(text);
    };
    const json = (/** @type {unknown} */ value) =>
      reply(200, 'application/json', JSON.stringify(value));
    const portal = url.pathname.startsWith('/open/') || url.pathname === '/token';
    if (portal && request.headers.cookie !== `subscription-key=${KEY}`) {
      return reply(
        401,
        'application/json',
        '{"code":"authentication_error","message":"key","correlationId":"c"}',
      );
    }
    if (url.pathname === '/token') {
      return json({ access_token: 'token-1', token_type: 'Bearer', expires_in: 3600 });
    }
    if (url.pathname === '/open/portal-api/exposure/statement-of-values/files') {
      const type = String(request.headers['content-type']);
      const form = await new globalThis.Response(body, {
        headers: { 'content-type': type },
      }).formData();
      const portfolio = /** @type {File} */ (form.get('portfolio'));
      const scan = /** @type {File} */ (form.get('scan'));
      const ok =
        portfolio.type === 'text/csv' && scan.size === 3 && form.get('note') === 'second quarter';
      return ok ? reply(200, 'application/pdf', PDF) : reply(400, 'text/plain', 'parts');
    }
    if (url.pathname === '/open/portal-api/exposure/statement-of-values/files/F-1') {
      const ok = request.headers['content-type'] === 'application/octet-stream';
      return reply(ok ? 200 : 415, 'text/plain', `replaced with ${body.toString()}`);
    }
    if (url.pathname === '/v1/quotes') {
      const ok =
        request.headers['x-marketplace-id'] === 'M-42' &&
        request.headers.cookie === 'session=s%201' &&
        url.searchParams.get('sellerId') === 'S-1';
      return ok ? json([]) : reply(400, 'text/plain', 'params');
    }
    if (url.pathname === '/v1/quotes/Q-1/history') return json({ events: 2 });
    if (url.pathname === '/v1/quote_notes') return reply(200, 'text/plain', 'note one\n');
    if (url.pathname === '/v1/quotes/Q-1/archive') return json({ archivedOn: '2026-11-28' });
    if (url.pathname === '/v1/quotes/search') return json([{ quoteId: 'Q-9' }]);
    if (url.pathname === '/v1/quotes/Q-1/notes') {
      const ok = body.toString() === 'text=call+back&tags=a+b';
      return reply(ok ? 204 : 400, '', '');
    }
    return reply(404, 'text/plain', 'no such path');
  });
});

/** @type {Awaited<ReturnType<typeof copyWorkspace>>} */
let workspace;
/** @type {Record<string, any>} */
let result;

/** A JSON answer of a schema. @param {unknown} schema */
const answer = (schema) => ({
  200: { description: 'ok', content: { 'application/json': { schema } } },
});

beforeAll(async () => {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  workspace = await copyWorkspace(['exposure', 'liability']);

  await workspace.editSpec('common', (doc) => {
    // The gateway takes the subscription key in a cookie, on data and token requests alike.
    doc.setIn(['components', 'securitySchemes', 'SubscriptionKey', 'in'], 'cookie');
    doc.setIn(['components', 'securitySchemes', 'SubscriptionKey', 'name'], 'subscription-key');
  });
  await workspace.editSpec('liability', (doc) => {
    const search = ['paths', '/quotes', 'get', 'parameters'];
    doc.addIn(
      search,
      doc.createNode({
        name: 'X-Marketplace-Id',
        in: 'header',
        schema: { type: 'string', pattern: '^M-' },
      }),
    );
    doc.addIn(
      search,
      doc.createNode({ name: 'session', in: 'cookie', schema: { type: 'string' } }),
    );
    doc.setIn(
      ['components', 'schemas', 'Date'],
      doc.createNode({ type: 'string', format: 'date', description: 'A calendar day.' }),
    );
    const quoteId = { name: 'quoteId', in: 'path', required: true, schema: { type: 'string' } };
    const paths = {
      '/quotes/{quoteId}/history': {
        get: {
          operationId: 'get-quote-history',
          parameters: [quoteId],
          responses: answer({ type: 'object' }),
        },
      },
      '/quote_notes': {
        get: {
          operationId: 'list_quote_notes',
          responses: {
            200: { description: 'ok', content: { 'text/plain': { schema: { type: 'string' } } } },
          },
        },
      },
      '/quotes/{quoteId}/archive': {
        post: {
          operationId: 'archive',
          tags: ['Quote Archive'],
          parameters: [quoteId],
          responses: answer({
            type: 'object',
            required: ['archivedOn'],
            properties: { archivedOn: { $ref: '#/components/schemas/Date' } },
          }),
        },
      },
      '/quotes/search': {
        get: {
          operationId: 'search-quotes',
          responses: answer({ type: 'array', items: { type: 'object' } }),
        },
      },
      '/quotes/{quoteId}/notes': {
        post: {
          operationId: 'add_quote_note',
          'x-client-method': 'quoteNotes.add',
          parameters: [quoteId],
          requestBody: {
            required: true,
            content: {
              'application/x-www-form-urlencoded': {
                schema: {
                  type: 'object',
                  properties: {
                    text: { type: 'string' },
                    tags: { type: 'array', items: { type: 'string' } },
                  },
                },
                encoding: { tags: { style: 'spaceDelimited' } },
              },
            },
          },
          responses: { 204: { description: 'noted' } },
        },
      },
    };
    for (const [path, item] of Object.entries(paths))
      doc.setIn(['paths', path], doc.createNode(item));
  });
  await workspace.editSpec('exposure', (doc) => {
    const security = [{ portalOAuth: ['Portal.Api', 'Portal.Api.Exposure'], subscriptionKey: [] }];
    doc.setIn(
      ['paths', '/open/portal-api/exposure/statement-of-values/files'],
      doc.createNode({
        post: {
          operationId: 'uploadStatementOfValuesFile',
          security,
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  required: ['portfolio'],
                  properties: {
                    portfolio: { type: 'string', format: 'binary' },
                    scan: { type: 'string', contentMediaType: 'image/png' },
                    note: { type: 'string' },
                  },
                },
                encoding: { portfolio: { contentType: 'text/csv' } },
              },
            },
          },
          responses: { 200: { description: 'the receipt', content: { 'application/pdf': {} } } },
        },
      }),
    );
    doc.setIn(
      ['paths', '/open/portal-api/exposure/statement-of-values/files/{fileId}'],
      doc.createNode({
        put: {
          operationId: 'replaceStatementOfValuesFile',
          security,
          parameters: [{ name: 'fileId', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/octet-stream': {} } },
          responses: { 200: { description: 'done', content: { 'text/plain': {} } } },
        },
      }),
    );
  });
  for (const pkg of ['auth', 'exposure', 'liability']) {
    await workspace.regenerate(pkg);
    await workspace.build(pkg);
  }
  result = JSON.parse(await workspace.runConsumer(CONSUMER.replace('__BASE_URL__', base)));
}, 300_000);

afterAll(async () => {
  server.close();
  await workspace?.remove();
});

describe('what OpenAPI 3.1 states reaches users with a spec edit alone', () => {
  it('sends header and cookie parameters under the names the spec gives them, checked', () => {
    expect(result.found).toEqual([]);
    expect(result.badHeader).toBe('quotes.search: X-Marketplace-Id must match ^M- (got "Q-42")');
  });

  it('uploads multipart form data with files, bytes and a form, and reads PDF, text and no body', () => {
    expect(result.receipt).toEqual({ type: 'application/pdf', text: PDF });
    expect(result.replaced).toBe('replaced with hi');
    expect(result.notes).toBe('note one\n');
    expect(result.noted).toBe(true);
    expect(result.badFile).toBe(
      'statementOfValuesFiles.upload: body.portfolio must be a Blob, a File, a Uint8Array or a readable stream of bytes',
    );
  });

  it('carries an API key in a cookie on token and data requests alike', () => {
    const portal = seen.filter(
      (request) => request.url?.startsWith('/open/') || request.url === '/token',
    );
    expect(portal.length).toBeGreaterThanOrEqual(3);
    for (const request of portal) {
      expect(request.headers.cookie).toBe(`subscription-key=${KEY}`);
      expect(request.headers['ocp-apim-subscription-key']).toBeUndefined();
    }
  });

  it('names methods from operationIds of any style, parting those that meet, and types by name', () => {
    expect(result.history).toEqual({ events: 2 });
    expect(result.day).toBe('2026-11-28');
    expect(result.otherSearch).toEqual([{ quoteId: 'Q-9' }]);
  });
});
