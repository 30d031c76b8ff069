import {
  STRICT_UPSTREAM_FACTS,
  startStrictUpstream,
  type StrictUpstream,
} from '@partner-apis/testing';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledDocuments, copySpecs } from './spec-documents.fixture.js';
import { writeSpecEdits } from './spec-edits.js';
import type { Finding, VerifyOptions } from './types.js';
import { verifyUpstream } from './verify.js';

let upstream: StrictUpstream;
let options: VerifyOptions;
let findings: Finding[];
beforeAll(async () => {
  upstream = await startStrictUpstream();
  const portal = (service: 'exposure' | 'riskEngineering') => ({
    baseUrl: upstream.urls[service],
    tokenUrl: upstream.urls.tokenUrl,
    credentials: upstream.credentials[service],
    rateLimit: 'gold' as const,
  });
  options = {
    exposure: portal('exposure'),
    riskEngineering: portal('riskEngineering'),
    approvals: {
      baseUrl: upstream.urls.approvals,
      credentials: upstream.credentials.approvals,
      tier: 'gold',
      employeeNumber: upstream.fixtures.employeeNumber,
    },
  };
  ({ findings } = await verifyUpstream(options));
});
afterAll(() => upstream.close());

function finding(spec: string, pointer: string): Finding {
  const found = findings.filter((f) => f.spec === spec && f.pointer === pointer);
  expect(found, `${spec} ${pointer}`).toHaveLength(1);
  return found[0]!;
}

const READS = [
  ['exposure', '/paths/~1open~1portal-api~1exposure~1locations/get/responses'],
  ['riskengineering', '/paths/~1open~1portal-api~1riskengineering~1Gradings/get/responses'],
  ['riskengineering', '/paths/~1open~1portal-api~1riskengineering~1Locations/get/responses'],
] as const;

describe('against a stand-in whose details differ from the guesses', () => {
  it('contradicts the scope separator, and gives the encoding that works', () => {
    const scope = finding(
      'auth',
      '/components/schemas/TokenRequest/properties/scope/x-upstream-gap',
    );
    expect(scope.status).toBe('contradicted');
    expect(scope.evidence).toMatch(
      /refused the scopes joined by a space with invalid_scope and granted them joined by a comma/,
    );
    expect(scope.edit).toContainEqual({
      op: 'replace',
      path: '/paths/~1login~1connect~1token/post/requestBody/content/application~1x-www-form-urlencoded/encoding/scope',
      value: { style: 'form', explode: false },
    });
  });

  it.each(READS)('contradicts where the records of %s %s are', (spec, responses) => {
    const place = finding(spec, `${responses}/200/x-upstream-gap`);
    expect(place.status).toBe('contradicted');
    expect(place.evidence).toMatch(
      `an object whose "${STRICT_UPSTREAM_FACTS.recordsProperty}" holds them`,
    );
    expect(place.edit?.[0]).toMatchObject({
      op: 'replace',
      path: `${responses}/200/content/application~1json/schema`,
      value: {
        type: 'object',
        'x-records': STRICT_UPSTREAM_FACTS.recordsProperty,
        properties: { totalCount: { type: 'integer' } },
      },
    });
  });

  it('contradicts the offset: a one-based page index, seen on every read', () => {
    const offset = finding('common', '/components/parameters/Offset/x-upstream-gap');
    expect(offset.status).toBe('contradicted');
    expect(offset.evidence.split('\n')).toHaveLength(3);
    expect(offset.evidence).toMatch(
      /a one-based page index; the spec says a zero-based record index/,
    );
    expect(offset.edit).toEqual(
      expect.arrayContaining([
        { op: 'replace', path: '/components/parameters/Offset/x-paging', value: 'page' },
        {
          op: 'replace',
          path: '/components/parameters/Offset/schema/minimum',
          value: STRICT_UPSTREAM_FACTS.offsetBase,
        },
      ]),
    );
  });

  it('contradicts the largest limit, with the cap the pages keep to', () => {
    const cap = finding('common', '/components/parameters/Limit/schema/maximum');
    expect(cap.status).toBe('contradicted');
    expect(cap.evidence).toMatch(
      `limit=1024 answered ${STRICT_UPSTREAM_FACTS.pageCap} records although more follow`,
    );
    expect(cap.edit).toEqual(
      expect.arrayContaining([
        {
          op: 'replace',
          path: '/components/parameters/Limit/schema/maximum',
          value: STRICT_UPSTREAM_FACTS.pageCap,
        },
        {
          op: 'replace',
          path: '/components/parameters/Limit/schema/default',
          value: STRICT_UPSTREAM_FACTS.pageCap,
        },
      ]),
    );
  });

  it('contradicts the fields of approval items, naming the one the spec lacks', () => {
    const items = finding('approvals', '/components/schemas/ApprovalItem/x-upstream-gap');
    expect(items.status).toBe('contradicted');
    expect(items.evidence).toMatch(`${STRICT_UPSTREAM_FACTS.extraApprovalField} (string)`);
    expect(items.edit).toEqual([
      {
        op: 'add',
        path: `/components/schemas/ApprovalItem/properties/${STRICT_UPSTREAM_FACTS.extraApprovalField}`,
        value: { type: 'string', format: 'date-time' },
      },
    ]);
  });

  it.each(READS)(
    'contradicts the error body %s %s documents for a bad request',
    (spec, responses) => {
      const body = finding(spec, `${responses}/4XX`);
      expect(body.status).toBe('contradicted');
      expect(body.evidence).toMatch(/400 to .*modifiedSince=not-a-date/);
      const name = spec === 'exposure' ? 'ExposureErrorBody' : 'RiskEngineeringErrorBody';
      expect(body.edit).toEqual([
        {
          op: 'add',
          path: `/components/schemas/${name}`,
          value: expect.objectContaining({
            type: 'object',
            required: [...STRICT_UPSTREAM_FACTS.errorBodyFields],
          }),
        },
        {
          op: 'add',
          path: `${responses}/400`,
          value: expect.objectContaining({
            content: {
              'application/json': expect.objectContaining({
                schema: { $ref: `#/components/schemas/${name}` },
              }),
            },
          }),
        },
      ]);
    },
  );

  it('gives an edit with every contradiction it can write one for', () => {
    const withoutEdit = findings.filter((f) => f.status === 'contradicted' && f.edit === undefined);
    expect(withoutEdit).toEqual([]);
  });

  it('confirms every finding once the edits are in a copy of the specs, which passes the lint', async () => {
    const copy = await copySpecs();
    try {
      const changed = await writeSpecEdits(copy.specs, findings);
      expect(changed.map((file) => file.slice(copy.specs.length + 1)).sort()).toEqual([
        'approvals/openapi.yaml',
        'auth/openapi.yaml',
        'common/openapi.yaml',
        'exposure/openapi.yaml',
        'riskengineering/openapi.yaml',
      ]);
      // The comments of the specs stay.
      expect(await readFile(join(copy.specs, 'common', 'openapi.yaml'), 'utf8')).toContain(
        '# Which error code goes with which status is not published;',
      );
      // The edited specs pass the lint as they are.
      expect(await copy.lint()).toMatch(/Your API descriptions are valid/);
      const again = await verifyUpstream({
        ...options,
        documents: await bundledDocuments(copy.dir),
      });
      expect(again.findings.filter((f) => f.status === 'contradicted')).toEqual([]);
      expect(again.findings.filter((f) => f.status === 'confirmed').length).toBeGreaterThan(20);
    } finally {
      await copy.remove();
    }
  });
});
