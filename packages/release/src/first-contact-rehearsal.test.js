// @ts-check
import { createServer } from 'node:http';
import { join } from 'node:path';
import { URLSearchParams } from 'node:url';
import { verifyUpstream, writeSpecEdits } from '@partner-apis/verify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyWorkspace } from './spec-change-rehearsal.js';

/**
 * What first contact with the real upstreams may correct, and what "new resources arrive without
 * a new version" brings, each a spec edit alone: a new paged read, a new read by id beside a
 * create, and, found and written by `partner-apis verify` against a stand-in that differs from
 * every guess at once, another subscription key header, another scope separator, a one-based
 * page index as the paging position and records in an envelope. The stand-in refuses anything
 * else; a fixed-answer mock beside it must change no spec.
 */
const KEY_HEADER = 'X-Api-Key';
const KEY = 'key-1';
const SCOPES = 'Portal.Api,Portal.Api.RiskEngineering';
const INSPECTIONS = 5;
const GRADINGS = 7;
/** The envelope the stand-in's records come in. */
const RECORDS = 'items';

/** The consumer: compiled with `tsc --strict`, so every new name must be typed, then run. */
const CONSUMER = `
import { createRiskEngineeringClient } from '@partner-apis/riskengineering';
import { createLiabilityClient } from '@partner-apis/liability';

const base = '__BASE_URL__';
const risk = createRiskEngineeringClient({
  baseUrl: base,
  tokenUrl: base + '/token',
  credentials: { clientId: 'c', clientSecret: 's', subscriptionKeys: { primary: '${KEY}' } },
});
const inspections: string[] = [];
for await (const inspection of risk.inspections.list({ pageSize: 2 })) {
  inspections.push(String(inspection['inspectionId']));
}
const gradings = [];
for await (const grading of risk.gradings.list({ pageSize: 3 })) gradings.push(grading);

const liability = createLiabilityClient({
  baseUrl: base + '/v1',
  credentials: { clientId: 'c', clientSecret: 's' },
});
const seller = await liability.sellers.get('SEL 1/2');
const name: string = seller.name;

console.log(JSON.stringify({ inspections, gradings: gradings.length, name }));
`;

/** @type {string[]} */
const seen = [];

/** A page of `total` records by one-based page index, or a 400 for a position it cannot take. */
function pageOf(/** @type {URL} */ url, /** @type {string} */ prefix, /** @type {number} */ total) {
  const page = Number(url.searchParams.get('offset'));
  const limit = Number(url.searchParams.get('limit'));
  if (!Number.isInteger(page) || page < 1) return undefined;
  const from = (page - 1) * limit;
  const count = Math.max(0, Math.min(limit, total - from));
  return Array.from({ length: count }, (_, i) => ({ [`${prefix}Id`]: `${prefix}-${from + i}` }));
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  seen.push(`${request.method} ${url.pathname}${url.search}`);
  const reply = (/** @type {number} */ status, /** @type {unknown} */ body) => {
    response.statusCode = status;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(body));
  };
  const refused = { code: 'authentication_error', message: 'No.', correlationId: 'c' };
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    if (url.pathname === '/token') {
      const form = new URLSearchParams(body);
      // The common error fields beside RFC 6749's, as a gateway in front of the server writes.
      const oauth = (/** @type {string} */ error) => ({
        code: 'data_validation',
        message: error,
        correlationId: 'c',
        error,
      });
      if (request.headers[KEY_HEADER.toLowerCase()] !== KEY)
        return reply(401, oauth('invalid_client'));
      if (form.get('grant_type') !== 'client_credentials')
        return reply(400, oauth('unsupported_grant_type'));
      if (form.get('scope') !== SCOPES) return reply(400, oauth('invalid_scope'));
      return reply(200, { access_token: 'token-1', token_type: 'Bearer', expires_in: 3600 });
    }
    if (url.pathname.startsWith('/open/')) {
      const authorized =
        request.headers.authorization === 'Bearer token-1' &&
        request.headers[KEY_HEADER.toLowerCase()] === KEY;
      if (!authorized) return reply(401, refused);
      const [prefix, total] = url.pathname.endsWith('/Inspections')
        ? ['inspection', INSPECTIONS]
        : ['grading', GRADINGS];
      const records = pageOf(url, String(prefix), Number(total));
      if (records === undefined) {
        return reply(400, { code: 'data_validation', message: 'offset', correlationId: 'c' });
      }
      return reply(200, { [RECORDS]: records, totalCount: total });
    }
    if (url.pathname === '/v1/parties/sellers/SEL%201%2F2') {
      return reply(200, { sellerId: 'SEL 1/2', name: 'Nordlicht', address: { country: 'DE' } });
    }
    return reply(404, { code: 'not_found', message: 'No such path.', correlationId: 'c' });
  });
});

/** The same answer to anything, no credentials checked: what the upstreams' mocking services do. */
const mock = createServer((_, response) => {
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify([{ gradingId: 'G-1' }]));
});

/** The address a server listens at, once it does. */
async function listening(/** @type {import('node:http').Server} */ at) {
  await new Promise((resolve) => at.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = at.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/** verify's options for the risk engineering service at `base`. */
function riskEngineeringAt(/** @type {string} */ base) {
  return {
    riskEngineering: {
      baseUrl: base,
      tokenUrl: `${base}/token`,
      credentials: { clientId: 'c', clientSecret: 's', subscriptionKeys: { primary: KEY } },
      rateLimit: /** @type {const} */ ('gold'),
    },
  };
}

/** @type {Awaited<ReturnType<typeof copyWorkspace>>} */
let workspace;
/** @type {Record<string, any>} */
let result;
/** @type {import('@partner-apis/verify').Finding[]} */
let findings;
/** @type {string[]} */
let writtenFromMock;

beforeAll(async () => {
  const base = await listening(server);
  const mockBase = await listening(mock);
  workspace = await copyWorkspace(['riskengineering', 'liability']);
  const specs = join(workspace.root, 'specs');

  // First contact with a mock: nothing it answers may reach a spec.
  const fromMock = await verifyUpstream(riskEngineeringAt(mockBase));
  writtenFromMock = await writeSpecEdits(specs, fromMock.findings);
  // First contact with the stand-in: verify finds what differs and writes the spec edits.
  ({ findings } = await verifyUpstream(riskEngineeringAt(base)));
  await writeSpecEdits(specs, findings);
  // What the clients send is asserted below, not what verify sent.
  seen.length = 0;

  await workspace.editSpec('riskengineering', (doc) => {
    // A new collection beside the gradings, read like them.
    const gradings = doc.getIn(['paths', '/open/portal-api/riskengineering/Gradings', 'get']);
    const inspections = {
      .../** @type {any} */ (gradings).toJSON(),
      operationId: 'listInspections',
      summary: 'List inspections',
    };
    doc.setIn(
      ['paths', '/open/portal-api/riskengineering/Inspections'],
      doc.createNode({ get: inspections }),
    );
  });
  await workspace.editSpec('liability', (doc) => {
    // A read of one seller by id, beside the create.
    const { get } = /** @type {any} */ (doc.getIn(['paths', '/quotes/{quoteId}'])).toJSON();
    get.operationId = 'getSeller';
    get.summary = 'Read one seller';
    get.parameters[2] = { ...get.parameters[2], name: 'sellerId', schema: { type: 'string' } };
    get.responses['2XX'].content['application/json'] = {
      schema: { $ref: '#/components/schemas/SellerCreated' },
    };
    doc.setIn(['paths', '/parties/sellers/{sellerId}'], doc.createNode({ get }));
  });
  for (const pkg of ['auth', 'riskengineering', 'liability']) {
    await workspace.regenerate(pkg);
    await workspace.build(pkg);
  }
  result = JSON.parse(await workspace.runConsumer(CONSUMER.replace('__BASE_URL__', base)));
}, 240_000);

afterAll(async () => {
  server.close();
  mock.close();
  await workspace?.remove();
});

describe('first contact finds what differs, and writes nothing from a mock', () => {
  it('contradicts every guess the stand-in differs from, each with its edit', () => {
    const contradicted = findings.filter((f) => f.status === 'contradicted' && f.edit);
    expect(contradicted.map((f) => `${f.spec} ${f.pointer}`)).toEqual(
      expect.arrayContaining([
        'auth /paths/~1login~1connect~1token/post/x-upstream-gap',
        'auth /components/schemas/TokenRequest/properties/scope/x-upstream-gap',
        'common /components/securitySchemes/SubscriptionKey/name',
        'common /components/parameters/Offset/x-upstream-gap',
        'riskengineering /paths/~1open~1portal-api~1riskengineering~1Gradings/get/responses/200/x-upstream-gap',
      ]),
    );
  });

  it('writes no spec from a service that answers the same whatever it is sent', () => {
    expect(writtenFromMock).toEqual([]);
  });
});

describe('what first contact may correct reaches users with a spec edit alone', () => {
  it('a new paged read is a typed list() that pages by the spec', () => {
    expect(result.inspections).toEqual(
      Array.from({ length: INSPECTIONS }, (_, i) => `inspection-${i}`),
    );
  });

  it('the position is sent as a one-based page index', () => {
    expect(result.gradings).toBe(GRADINGS);
    const pages = seen
      .filter((line) => line.startsWith('GET /open/portal-api/riskengineering/Gradings'))
      .map((line) => new URLSearchParams(line.split('?')[1]).get('offset'));
    // Pages are fetched several at a time, so they arrive in any order.
    expect(pages).toEqual(expect.arrayContaining(['1', '2', '3']));
    expect(pages).not.toContain('0');
  });

  it('the subscription key goes in the spec’s header, and the scopes are joined as it encodes them', () => {
    expect(seen.filter((line) => line.startsWith('POST /token'))).toHaveLength(1);
  });

  it('a new read by id is a typed get() whose id is one path segment', () => {
    expect(result.name).toBe('Nordlicht');
    expect(seen).toContain('GET /v1/parties/sellers/SEL%201%2F2');
  });
});
