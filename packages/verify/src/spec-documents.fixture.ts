import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generate } from '@partner-apis/codegen';
import type { VerifyOptions } from './types.js';

const run = promisify(execFile);

/** The specs of the repository. */
export const SPECS_DIR = fileURLToPath(new URL('../../../specs', import.meta.url));
const SPECS = ['auth', 'exposure', 'riskengineering', 'liability', 'approvals'] as const;

/** A copy of `specs/` and of the lint's configuration in a fresh temporary folder. */
export async function copySpecs(): Promise<{
  dir: string;
  specs: string;
  /** `pnpm lint:specs` of the copy: resolves to its output, rejects with it on a problem. */
  lint(): Promise<string>;
  remove(): Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'verify-specs-'));
  const specs = join(dir, 'specs');
  await cp(SPECS_DIR, specs, { recursive: true });
  await cp(join(SPECS_DIR, '..', 'redocly.yaml'), join(dir, 'redocly.yaml'));
  return {
    dir,
    specs,
    async lint() {
      const redocly = join(SPECS_DIR, '..', 'node_modules', '.bin', 'redocly');
      const env = {
        ...process.env,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
      };
      const { stdout, stderr } = await run(redocly, ['lint'], { cwd: dir, env });
      return stdout + stderr;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * The specs under `dir/specs` bundled as `verifyUpstream`'s `documents`, by the same `document`
 * jobs of the generator that bundle the sandbox's, which this package checks against.
 */
export async function bundledDocuments(
  dir: string,
): Promise<NonNullable<VerifyOptions['documents']>> {
  const pkg = join(dir, 'bundle');
  await cp(
    fileURLToPath(new URL('../../sandbox/codegen.json', import.meta.url)),
    join(pkg, 'codegen.json'),
  );
  const config = await readFile(join(pkg, 'codegen.json'), 'utf8');
  await writeFile(join(pkg, 'codegen.json'), config.replaceAll('../../specs/', '../specs/'));
  await generate(pkg);
  const documents: Record<string, Record<string, unknown>> = {};
  for (const spec of SPECS) {
    const module = await readFile(join(pkg, 'src', 'generated', `${spec}.document.ts`), 'utf8');
    // The module is `export const openapiDocument: … = <JSON>;` after its header.
    const json = module.slice(module.indexOf('= {') + 2, module.lastIndexOf(';'));
    documents[spec] = JSON.parse(json) as Record<string, unknown>;
  }
  return documents;
}
