// @ts-check
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { linkConsumer, REPOSITORY_ROOT } from './spec-change-rehearsal.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/**
 * The oldest TypeScript the packages' declarations compile with, under `strict` and without
 * `skipLibCheck`: 5.3 fails inside openapi-fetch's types. The READMEs state it; this keeps it true.
 */
const MINIMUM = dirname(require.resolve('typescript-minimum/package.json'));

const CONSUMER = `
import { ApiError, createApprovalsClient } from '@partner-apis/approvals';
import { createExposureClient } from '@partner-apis/exposure';
import { createLiabilityClient } from '@partner-apis/liability';
import { createRiskEngineeringClient } from '@partner-apis/riskengineering';

const credentials = { clientId: 'id', clientSecret: 'secret' };
const keys = { ...credentials, subscriptionKeys: { primary: 'k' } };
const approvals = createApprovalsClient({ baseUrl: 'https://a.example/v1', credentials });
const liability = createLiabilityClient({ baseUrl: 'https://l.example/v1/uat', credentials });
const exposure = createExposureClient({ baseUrl: 'https://e.example', tokenUrl: 'https://t.example', credentials: keys });
const risk = createRiskEngineeringClient({ baseUrl: 'https://r.example', tokenUrl: 'https://t.example', credentials: keys });
export async function use(): Promise<string> {
  const result = await approvals.approvals.list('100234');
  const quotes = await liability.quotes.search({ sellerId: 'SEL-1' });
  const page = await exposure.locations.page({ modifiedSince: new Date(), limit: 10 });
  for await (const grading of risk.gradings.list({ pageSize: 100 })) console.log(grading);
  return [result.userFullname, quotes.length, page.length, ApiError.name].join();
}
`;

/** @type {string | undefined} */
let dir;
afterAll(() => (dir === undefined ? undefined : rm(dir, { recursive: true, force: true })));

describe('the minimum TypeScript version', () => {
  it('compiles a consumer of every service package with TypeScript 5.4, strict, lib checked', async () => {
    dir = await mkdtemp(join(tmpdir(), 'typescript-minimum-'));
    await linkConsumer(dir, join(REPOSITORY_ROOT, 'packages'), [
      'errors',
      'auth',
      'core',
      'approvals',
      'exposure',
      'liability',
      'riskengineering',
    ]);
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM', 'DOM.AsyncIterable'],
          types: [],
          strict: true,
          skipLibCheck: false,
          noEmit: true,
        },
        include: ['consumer.ts'],
      }),
    );
    await writeFile(join(dir, 'consumer.ts'), CONSUMER);
    const compiled = await run(process.execPath, [join(MINIMUM, 'bin/tsc'), '-p', dir]).then(
      () => '',
      (error) => String(/** @type {{ stdout?: string }} */ (error).stdout ?? error),
    );
    expect(compiled).toBe('');
  });
});
