// @ts-check
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyWorkspace } from './spec-change-rehearsal.js';

/**
 * What an upstream can say about an operation in OpenAPI 3.1 reaches users with a spec edit
 * alone: a paged read under a path parameter, records in an envelope typed exactly, a
 * deprecated operation, and a subscription key the gateway takes in the query. A strict
 * stand-in refuses anything else.
 */
const KEY_PARAMETER = 'subscription-key';
const KEY = 'key-in-the-query-7';
const UNDER = 5;
const SURVEYS = 3;

/** The consumer: compiled with `tsc --strict` (so each record must be typed exactly), then run. */
const CONSUMER = `
import { createRiskEngineeringClient, type Grading } from '@partner-apis/riskengineering';

const base = '__BASE_URL__';
const risk = createRiskEngineeringClient({
  baseUrl: base,
  tokenUrl: base + '/token',
  credentials: { clientId: 'c', clientSecret: 's', subscriptionKeys: { primary: '${KEY}' } },
});
const under: string[] = [];
for await (const grading of risk.locationGradings.list('LOC 1/2', { pageSize: 2 })) {
  const exact: Grading = grading;
  under.push(String(exact['gradingId']));
}
const surveys: Grading[] = [];
for await (const survey of risk.surveys.list({ pageSize: 2 })) {
  const exact: Grading = survey;
  surveys.push(exact);
}
let message = '';
try {
  await risk.gradings.page({ limit: 1, offset: 999 });
} catch (error) {
  message = (error as Error).message;
}
console.log(JSON.stringify({ under, surveys: surveys.length, message }));
`;

/** @type {string[]} */
const seen = [];

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  seen.push(`${request.method} ${url.pathname}${url.search}`);
  const reply = (/** @type {number} */ status, /** @type {unknown} */ body) => {
    response.statusCode = status;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(body));
  };
  const refused = { code: 'authentication_error', message: 'No.', correlationId: 'c' };
  request.resume();
  request.on('end', () => {
    if (url.pathname === '/token') {
      // The token request carries the key where the data requests do: in the query.
      const keyed =
        url.searchParams.get(KEY_PARAMETER) === KEY &&
        request.headers['ocp-apim-subscription-key'] === undefined;
      if (!keyed) return reply(401, { error: 'invalid_client' });
      return reply(200, { access_token: 'token-1', token_type: 'Bearer', expires_in: 3600 });
    }
    const authorized =
      request.headers.authorization === 'Bearer token-1' &&
      url.searchParams.get(KEY_PARAMETER) === KEY &&
      request.headers['ocp-apim-subscription-key'] === undefined;
    if (!authorized) return reply(401, refused);
    const offset = Number(url.searchParams.get('offset'));
    const limit = Number(url.searchParams.get('limit'));
    const page = (/** @type {number} */ total) =>
      Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({
        gradingId: `G-${offset + i}`,
      }));
    if (url.pathname === '/open/portal-api/riskengineering/Locations/LOC%201%2F2/Gradings') {
      return reply(200, page(UNDER));
    }
    if (url.pathname === '/open/portal-api/riskengineering/Surveys') {
      return reply(200, { items: page(SURVEYS), total: SURVEYS });
    }
    return reply(400, {
      code: 'data_validation',
      message: `offset ${offset} is past the end of ${request.url}`,
      correlationId: 'c',
    });
  });
});

/** @type {Awaited<ReturnType<typeof copyWorkspace>>} */
let workspace;
/** @type {Record<string, any>} */
let result;
let resources = '';

beforeAll(async () => {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  workspace = await copyWorkspace(['riskengineering']);

  await workspace.editSpec('common', (doc) => {
    doc.setIn(['components', 'securitySchemes', 'SubscriptionKey', 'in'], 'query');
    doc.setIn(['components', 'securitySchemes', 'SubscriptionKey', 'name'], KEY_PARAMETER);
  });
  await workspace.editSpec('riskengineering', (doc) => {
    const gradingsPath = ['paths', '/open/portal-api/riskengineering/Gradings', 'get'];
    const gradings = /** @type {any} */ (doc.getIn(gradingsPath)).toJSON();
    // The gradings of one location: the same read under a path parameter.
    doc.setIn(
      ['paths', '/open/portal-api/riskengineering/Locations/{locationId}/Gradings'],
      doc.createNode({
        get: {
          ...gradings,
          operationId: 'listLocationGradings',
          summary: 'List the gradings of one location',
          parameters: [
            { name: 'locationId', in: 'path', required: true, schema: { type: 'string' } },
            ...gradings.parameters,
          ],
        },
      }),
    );
    // Surveys: gradings in an envelope with a total.
    const ok = gradings.responses['200'];
    doc.setIn(
      ['paths', '/open/portal-api/riskengineering/Surveys'],
      doc.createNode({
        get: {
          ...gradings,
          operationId: 'listSurveys',
          summary: 'List surveys',
          responses: {
            ...gradings.responses,
            200: {
              description: ok.description,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['items'],
                    properties: {
                      items: { type: 'array', items: { $ref: '#/components/schemas/Grading' } },
                      total: { type: 'integer' },
                    },
                  },
                },
              },
            },
          },
        },
      }),
    );
    doc.setIn([...gradingsPath, 'deprecated'], true);
  });
  for (const pkg of ['auth', 'riskengineering']) {
    await workspace.regenerate(pkg);
    await workspace.build(pkg);
  }
  resources = await readFile(
    join(workspace.root, 'packages/riskengineering/src/generated/resources.ts'),
    'utf8',
  );
  result = JSON.parse(await workspace.runConsumer(CONSUMER.replace('__BASE_URL__', base)));
}, 240_000);

afterAll(async () => {
  server.close();
  await workspace?.remove();
});

describe('what an upstream can say about an operation reaches users with a spec edit alone', () => {
  it('a paged read under a path parameter takes it first and sends it as one segment', () => {
    expect(result.under).toEqual(Array.from({ length: UNDER }, (_, i) => `G-${i}`));
  });

  it('records in an envelope are typed exactly and read from it', () => {
    expect(result.surveys).toBe(SURVEYS);
  });

  it('a deprecated operation is @deprecated in its TSDoc', () => {
    const gradings = resources.slice(0, resources.indexOf('readonly gradings:'));
    expect(gradings.slice(gradings.lastIndexOf('/**'))).toContain('@deprecated');
  });

  it('a key the spec puts in the query is sent there, token request included, and no message shows it', () => {
    expect(seen.filter((line) => line.includes('/open/')).every((l) => l.includes(KEY))).toBe(true);
    expect(seen.filter((line) => line.startsWith('POST /token'))).toEqual([
      `POST /token?${KEY_PARAMETER}=${KEY}`,
    ]);
    expect(result.message).toContain('offset=999');
    expect(result.message).not.toContain(KEY);
  });
});
