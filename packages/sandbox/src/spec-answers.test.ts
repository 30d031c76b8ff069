import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openapiDocument } from './generated/riskengineering.document.js';
import { portalGet, RISK_LOCATIONS_PATH } from './sandbox.fixture.js';
import { SandboxConfigError, startSandbox, type Sandbox } from './index.js';

const SURVEYS_PATH = '/open/portal-api/riskengineering/Surveys';
const SURVEYS = 30;
const RISK_LOCATIONS = 40;

/**
 * The risk engineering spec with two operations the sandbox has no code for: a read paged by
 * page number from 1, whose records sit in an envelope, and a read of one record by its key.
 */
function specWithSurveys(): Record<string, unknown> {
  const document = structuredClone(openapiDocument) as {
    paths: Record<string, unknown>;
    components: { schemas: Record<string, unknown> };
  };
  const survey = { $ref: '#/components/schemas/Survey' };
  const errors = { '401': { $ref: '#/components/responses/Unauthorized' } };
  document.paths[SURVEYS_PATH] = {
    get: {
      operationId: 'listSurveys',
      parameters: [
        { $ref: '#/components/parameters/ModifiedSince' },
        { $ref: '#/components/parameters/Limit' },
        {
          name: 'page',
          in: 'query',
          'x-paging': 'page',
          // No default: a request without a page reads the first.
          schema: { type: 'integer', minimum: 1 },
        },
      ],
      responses: {
        '200': {
          description: 'A page of surveys.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['surveys', 'page'],
                properties: {
                  page: { type: 'integer', minimum: 1 },
                  surveys: { type: 'array', items: survey },
                },
              },
              examples: {
                one: {
                  value: {
                    page: 1,
                    surveys: [
                      {
                        surveyId: 'SRV-00412',
                        locationId: 'LOC-0001842',
                        surveyor: 'Sanne de Vries',
                        findings: 4,
                        modifiedDate: '2025-11-18',
                      },
                    ],
                  },
                },
              },
            },
          },
        },
        ...errors,
      },
    },
  };
  document.paths[`${SURVEYS_PATH}/{surveyId}`] = {
    get: {
      operationId: 'getSurvey',
      parameters: [{ name: 'surveyId', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'One survey.', content: { 'application/json': { schema: survey } } },
        ...errors,
      },
    },
  };
  document.components.schemas.Survey = {
    type: 'object',
    'x-record-key': 'surveyId',
    required: ['surveyId', 'locationId', 'surveyor', 'findings', 'modifiedDate'],
    additionalProperties: false,
    properties: {
      surveyId: { type: 'string', pattern: '^SRV-\\d{5}$' },
      locationId: { type: 'string' },
      surveyor: { type: 'string', examples: ['Lena Fischer', 'Tomás Herrera'] },
      findings: { type: 'integer', minimum: 0, maximum: 20 },
      modifiedDate: { type: 'string', format: 'date' },
    },
  };
  return document;
}

interface Survey {
  surveyId: string;
  locationId: string;
  surveyor: string;
  findings: number;
  modifiedDate: string;
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({
    specs: { riskEngineering: specWithSurveys() },
    sizes: { 'riskEngineering.listSurveys': SURVEYS, riskLocations: RISK_LOCATIONS },
  });
});
afterAll(() => sb.close());
afterEach(() => expect(sb.stats().responseViolations).toEqual([]));

async function surveys(query: string): Promise<{ page: number; surveys: Survey[] }> {
  const response = await portalGet(sb, 'riskEngineering', `${SURVEYS_PATH}?${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as { page: number; surveys: Survey[] };
}

describe('an operation added to a spec', () => {
  it('is routed, with a route id for faults and stats', () => {
    expect(sb.routes()).toEqual(
      expect.arrayContaining([
        { id: 'riskEngineering.listSurveys', method: 'GET', path: `/portal${SURVEYS_PATH}` },
        {
          id: 'riskEngineering.getSurvey',
          method: 'GET',
          path: `/portal${SURVEYS_PATH}/{surveyId}`,
        },
      ]),
    );
  });

  it('asks for the token and key of its service', async () => {
    const bare = await fetch(`${sb.urls.riskEngineering}${SURVEYS_PATH}`);
    expect(bare.status).toBe(401);
    const exposureToken = await portalGet(sb, 'exposure', `${SURVEYS_PATH}`);
    expect(exposureToken.status).toBe(401);
  });

  it('pages by page number from 1, in an envelope, the sizes option giving the count', async () => {
    const first = await surveys('limit=10&page=1');
    expect(first.page).toBe(1);
    expect(first.surveys.map((s) => s.surveyId).slice(0, 2)).toEqual(['SRV-00001', 'SRV-00002']);
    const third = await surveys('limit=10&page=3');
    expect(third.page).toBe(3);
    expect(third.surveys.map((s) => s.surveyId).at(-1)).toBe('SRV-00030');
    expect((await surveys('limit=10&page=4')).surveys).toEqual([]);
    const unasked = await surveys('');
    expect(unasked.surveys).toHaveLength(SURVEYS);
    expect(unasked.surveys[0]?.surveyId).toBe('SRV-00001');
    const before = await portalGet(sb, 'riskEngineering', `${SURVEYS_PATH}?page=0`);
    expect(before.status).toBe(400);
  });

  it('gives the same record at the same position whatever the page size', async () => {
    const big = await surveys('limit=30&page=1');
    const small = await surveys('limit=5&page=3');
    expect(small.surveys).toEqual(big.surveys.slice(10, 15));
    const surveyors = new Set(big.surveys.map((s) => s.surveyor));
    expect(surveyors).toEqual(new Set(['Sanne de Vries', 'Lena Fischer', 'Tomás Herrera']));
  });

  it('filters by its watermark and points at records of the service that exist', async () => {
    const all = (await surveys('limit=30')).surveys;
    const since = all[20]!.modifiedDate;
    const recent = (await surveys(`limit=30&modifiedSince=${since}`)).surveys;
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.length).toBeLessThan(SURVEYS);
    expect(recent).toEqual(all.filter((s) => s.modifiedDate >= since));
    for (const survey of all) {
      expect(Number(survey.locationId.slice(4))).toBeLessThanOrEqual(RISK_LOCATIONS);
    }
  });

  it('answers a read of one record with that record', async () => {
    const response = await portalGet(sb, 'riskEngineering', `${SURVEYS_PATH}/SRV-00007`);
    expect(response.status).toBe(200);
    const survey = (await response.json()) as Survey;
    expect(survey.surveyId).toBe('SRV-00007');
    const again = await portalGet(sb, 'riskEngineering', `${SURVEYS_PATH}/SRV-00007`);
    expect(await again.json()).toEqual(survey);
  });

  it('keeps serving the operations of the spec it replaced', async () => {
    const response = await portalGet(sb, 'riskEngineering', `${RISK_LOCATIONS_PATH}?limit=1`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([expect.objectContaining({ locationId: 'LOC-0000001' })]);
  });
});

describe('a served read whose page size has no default', () => {
  it('answers 100 records, the page size clients send, where the maximum allows', async () => {
    const document = specWithSurveys() as {
      paths: Record<string, { get: { parameters: unknown[] } }>;
    };
    document.paths[SURVEYS_PATH]!.get.parameters[1] = {
      name: 'limit',
      in: 'query',
      'x-paging': 'limit',
      schema: { type: 'integer', minimum: 1, maximum: 1024 },
    };
    const large = await startSandbox({
      specs: { riskEngineering: document },
      sizes: { 'riskEngineering.listSurveys': 150 },
    });
    try {
      const response = await portalGet(large, 'riskEngineering', SURVEYS_PATH);
      const body = (await response.json()) as { surveys: Survey[] };
      expect(body.surveys).toHaveLength(100);
    } finally {
      await large.close();
    }
  });
});

describe('a served spec whose subscription key goes in the query', () => {
  it('takes the key from the query parameter its apiKey scheme names, not the header', async () => {
    const document = specWithSurveys() as {
      components: { securitySchemes: Record<string, unknown> };
    };
    document.components.securitySchemes.subscriptionKey = {
      type: 'apiKey',
      in: 'query',
      name: 'subscription-key',
    };
    const keyInQuery = await startSandbox({ specs: { riskEngineering: document } });
    try {
      const key = keyInQuery.credentials.riskEngineering.subscriptionKeys.primary;
      const inHeader = await portalGet(keyInQuery, 'riskEngineering', `${SURVEYS_PATH}?limit=1`);
      expect(inHeader.status).toBe(401);
      const inQuery = await portalGet(
        keyInQuery,
        'riskEngineering',
        `${SURVEYS_PATH}?limit=1&subscription-key=${key}`,
      );
      expect(inQuery.status).toBe(200);
    } finally {
      await keyInQuery.close();
    }
  });
});

describe('options of served specs', () => {
  it('refuses a spec the operation model cannot read, naming the operation', async () => {
    const document = specWithSurveys() as {
      paths: Record<string, { get: { parameters: unknown[] } }>;
    };
    document.paths[SURVEYS_PATH]!.get.parameters[2] = {
      name: 'page',
      in: 'query',
      'x-paging': 'cursor',
    };
    const problem = `GET ${SURVEYS_PATH}: parameter page: x-paging must be limit, offset, page on a query parameter (got cursor in query)`;
    await expect(startSandbox({ specs: { riskEngineering: document } })).rejects.toThrow(
      new SandboxConfigError(`the riskEngineering spec: ${problem}`, {
        option: 'specs.riskEngineering',
        problem,
      }),
    );
  });

  it('refuses a spec that is no OpenAPI document, and a size of no paged read', async () => {
    await expect(
      startSandbox({ specs: { riskEngineering: { openapi: '3.1.0' } } }),
    ).rejects.toThrow(
      new SandboxConfigError('specs.riskEngineering must be an OpenAPI document with paths'),
    );
    await expect(
      startSandbox({ specs: { billing: specWithSurveys() } as Record<string, object> }),
    ).rejects.toThrow(/^specs\.billing: the services are auth, exposure/);
    await expect(startSandbox({ sizes: { 'riskEngineering.listSurveys': 5 } })).rejects.toThrow(
      new SandboxConfigError('sizes.riskEngineering.listSurveys: no paged read has this route id'),
    );
    await expect(startSandbox({ sizes: { surveys: 5 } })).rejects.toThrow(
      new SandboxConfigError('sizes.surveys: no paged read has this route id'),
    );
  });
});
