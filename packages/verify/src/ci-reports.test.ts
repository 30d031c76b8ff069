import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refusedUrl, startStrictUpstream } from '@partner-apis/testing';
import draft04 from 'ajv-draft-04';
import formatsPlugin from 'ajv-formats';
import { parse as parseTestResults } from 'test-results-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatJunit } from './junit.js';
import { formatSarif, type SpecFile } from './sarif.js';
import { SPECS_DIR } from './spec-documents.fixture.js';
import { applySpecEdits } from './spec-edits.js';
import type { Finding, SpecName } from './types.js';
import { verifyUpstream } from './verify.js';

// Both are CommonJS; under NodeNext their default import is the module object.
const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default;
const Ajv4 = draft04 as unknown as typeof draft04.default;

let findings: Finding[];
let notes: string[];
let dir: string;
const specs: Partial<Record<SpecName, SpecFile>> = {};
beforeAll(async () => {
  const upstream = await startStrictUpstream();
  try {
    // Contradictions (the strict stand-in), a check skipped (no employee), and checks that
    // could not observe (a liability that refuses the connection).
    ({ findings, notes } = await verifyUpstream({
      exposure: {
        baseUrl: upstream.urls.exposure,
        tokenUrl: upstream.urls.tokenUrl,
        credentials: upstream.credentials.exposure,
        rateLimit: 'gold',
      },
      approvals: {
        baseUrl: upstream.urls.approvals,
        credentials: upstream.credentials.approvals,
        tier: 'gold',
      },
      liability: {
        baseUrl: await refusedUrl(),
        credentials: { clientId: 'c', clientSecret: 'secret-1' },
        rateLimit: 'gold',
      },
    }));
  } finally {
    await upstream.close();
  }
  for (const spec of ['auth', 'common', 'exposure', 'liability', 'approvals'] as const) {
    const uri = `specs/${spec}/openapi.yaml`;
    specs[spec] = { uri, text: await readFile(join(SPECS_DIR, spec, 'openapi.yaml'), 'utf8') };
  }
  dir = await mkdtemp(join(tmpdir(), 'verify-reports-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const count = (status: string) => findings.filter((f) => f.status === status).length;

describe('the JUnit report, as a JUnit reader we did not write reads it', () => {
  it('has one test case per check: failed for a contradiction or a check that could not observe, skipped with its reason', async () => {
    for (const status of ['contradicted', 'unobserved', 'skipped', 'confirmed'])
      expect(count(status), status).toBeGreaterThan(0);
    const file = join(dir, 'verify.junit.xml');
    await writeFile(file, formatJunit(findings, { notes }));
    const read = parseTestResults({ type: 'junit', files: [file] });
    const cases = read.suites.flatMap((suite) =>
      suite.cases.map((c) => ({ suite: suite.name, ...c })),
    );
    expect(cases).toHaveLength(findings.length);
    for (const finding of findings) {
      const found = cases.filter(
        (c) => c.suite === `specs/${finding.spec}/openapi.yaml` && c.name === finding.pointer,
      );
      expect(found, `${finding.spec} ${finding.pointer}`).toHaveLength(1);
      const status = {
        contradicted: 'FAIL',
        unobserved: 'FAIL',
        skipped: 'SKIP',
        confirmed: 'PASS',
      };
      expect(found[0]!.status).toBe(status[finding.status]);
      if (finding.status === 'contradicted' || finding.status === 'unobserved')
        expect(found[0]!.failure).toBe(finding.evidence.split('\n')[0]);
    }
    expect(read.skipped).toBe(count('skipped'));
    expect(read.failed + read.errors).toBe(count('contradicted') + count('unobserved'));
  });
});

describe('the SARIF report, against the OASIS schema of SARIF 2.1.0', () => {
  let log: {
    runs: {
      results: {
        message: { text: string };
        locations: {
          physicalLocation: {
            artifactLocation: { uri: string };
            region: { startLine: number; startColumn: number };
          };
        }[];
        fixes?: {
          artifactChanges: {
            replacements: {
              deletedRegion: { charOffset: number; charLength: number };
              insertedContent: { text: string };
            }[];
          }[];
        }[];
      }[];
    }[];
  };
  beforeAll(() => {
    log = JSON.parse(formatSarif(findings, specs)) as typeof log;
  });

  it('is valid SARIF 2.1.0', async () => {
    const schema = JSON.parse(
      await readFile(new URL('fixtures/sarif-schema-2.1.0.json', import.meta.url), 'utf8'),
    ) as object;
    const ajv = new Ajv4({ allErrors: true, strict: false });
    addFormats(ajv);
    const valid = ajv.validate(schema, log);
    expect(ajv.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('has a result per contradicted guess, at the line of the spec that writes the guess', () => {
    const contradicted = findings.filter((f) => f.status === 'contradicted');
    const [run] = log.runs;
    expect(run!.results).toHaveLength(contradicted.length);
    for (const [i, finding] of contradicted.entries()) {
      const { physicalLocation } = run!.results[i]!.locations[0]!;
      expect(physicalLocation.artifactLocation.uri).toBe(`specs/${finding.spec}/openapi.yaml`);
      const line = specs[finding.spec]!.text.split('\n')[physicalLocation.region.startLine - 1]!;
      const key = finding.pointer.split('/').at(-1)!.replaceAll('~1', '/').replaceAll('~0', '~');
      expect(line.slice(physicalLocation.region.startColumn - 1), finding.pointer).toMatch(
        new RegExp(`^'?${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}'?:`),
      );
    }
  });

  it('gives the spec edit as the fix: applied to the spec, it is the edited spec', () => {
    const offset = findings.find(
      (f) =>
        f.status === 'contradicted' && f.pointer === '/components/parameters/Offset/x-upstream-gap',
    )!;
    const index = findings.filter((f) => f.status === 'contradicted').indexOf(offset);
    const [change] = log.runs[0]!.results[index]!.fixes![0]!.artifactChanges;
    const text = specs.common!.text;
    let fixed = text;
    for (const { deletedRegion, insertedContent } of [...change!.replacements].reverse()) {
      const { charOffset, charLength } = deletedRegion;
      fixed =
        fixed.slice(0, charOffset) + insertedContent.text + fixed.slice(charOffset + charLength);
    }
    expect(fixed).toBe(applySpecEdits(text, offset.edit!));
    expect(fixed).toContain('x-paging: page');
  });
});
