// #region readme-example
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import {
  createRiskEngineeringClient,
  TokenError,
  type Grading,
  type RiskEngineeringClient,
} from '@partner-apis/riskengineering';

let sb: Sandbox;
let risk: RiskEngineeringClient;
beforeAll(async () => {
  sb = await startSandbox({ sizes: { gradings: 2000, riskLocations: 1400 } });
  risk = createRiskEngineeringClient({
    baseUrl: sb.urls.riskEngineering,
    tokenUrl: sb.urls.tokenUrl,
    credentials: sb.credentials.riskEngineering, // { clientId, clientSecret, subscriptionKeys }
    pageSize: 1024,
    prefetch: 8,
  });
});
afterAll(() => sb.close());

test('gradings modified since a day, grouped by grade', async () => {
  const byGrade = new Map<string, Grading[]>();
  for await (const grading of risk.gradings.list({ modifiedSince: new Date('2025-01-01') })) {
    const grade = String(grading['grade']);
    byGrade.set(grade, [...(byGrade.get(grade) ?? []), grading]);
  }
  expect(byGrade.size).toBeGreaterThan(0);
  expect([...byGrade.keys()].every((grade) => 'ABCDE'.includes(grade))).toBe(true);

  const pageSizes: number[] = [];
  for await (const page of risk.locations.list({ pageSize: 500 }).pages()) {
    pageSizes.push(page.records.length);
  }
  expect(pageSizes).toEqual([500, 500, 400]);
});

test('unknown credentials are a TokenError, not a silent empty list', async () => {
  const wrong = createRiskEngineeringClient({
    baseUrl: sb.urls.riskEngineering,
    tokenUrl: sb.urls.tokenUrl,
    credentials: { ...sb.credentials.riskEngineering, clientId: 'someone-else' },
  });
  const error = await wrong.gradings.page({ limit: 10 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TokenError);
  expect((error as TokenError).error).toBe('invalid_client');
});
// #endregion readme-example

// #region readme-sync
test('mirrors the gradings: everything the first time, then what changed', async () => {
  const mirror = new Map<unknown, Record<string, unknown>>();
  let saved: string | undefined; // in production: a file or a database row

  const first = risk.gradings.sync({ checkpoint: saved, pageSize: 1024 });
  for await (const grading of first) mirror.set(grading['gradingId'], grading);
  saved = JSON.stringify(first.checkpoint);
  expect(mirror.size).toBe(2000);

  const next = risk.gradings.sync({ checkpoint: saved, pageSize: 1024 });
  for await (const grading of next) mirror.set(grading['gradingId'], grading);
  expect(next.checkpoint.complete).toBe(true);
  saved = JSON.stringify(next.checkpoint);
  expect(JSON.parse(saved)).toEqual(next.checkpoint); // plain JSON, for the next run
});
// #endregion readme-sync

// The README shows the examples above verbatim, so they cannot rot.
import { readFileSync } from 'node:fs';

test('the README shows these examples as they are', () => {
  const source = readFileSync(new URL('./readme-example.test.ts', import.meta.url), 'utf8');
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  for (const region of ['readme-example', 'readme-sync']) {
    const example = new RegExp(`// #region ${region}\n([\\s\\S]*?)// #endregion`).exec(source)?.[1];
    expect(example).toBeDefined();
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  }
});
