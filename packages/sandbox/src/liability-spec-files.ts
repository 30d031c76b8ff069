import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { SandboxConfigError } from './config-error.js';
import type { SandboxOptions } from './options.js';
import type { Sandbox } from './sandbox.js';
import { startSandbox } from './start-sandbox.js';

/** Finds a `$ref` into another file: the sandbox serves only bundled documents. */
function externalRef(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key === '$ref' && typeof item === 'string' && !item.startsWith('#')) return item;
    const found = externalRef(item);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The option of the errors about a `--liability-spec` file. */
export const LIABILITY_SPEC_OPTION = '--liability-spec';

function fileError(file: string, problem: string): SandboxConfigError {
  return new SandboxConfigError(`${LIABILITY_SPEC_OPTION} ${file}: ${problem}`, {
    option: LIABILITY_SPEC_OPTION,
    problem,
  });
}

/** Reads the OpenAPI document of one `--liability-spec` file; any problem is one line naming it. */
async function readLiabilitySpec(file: string, cwd: string): Promise<object> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), 'utf8');
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT') throw fileError(file, 'there is no such file');
    if (code === 'EISDIR') throw fileError(file, 'is a directory, not a file');
    throw fileError(file, `cannot be read (${code ?? String(error)})`);
  }
  let document: unknown;
  try {
    // YAML 1.2 reads JSON as well.
    document = parseYaml(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const [firstLine = ''] = (error as Error).message.split('\n');
    throw fileError(file, `is neither YAML nor JSON: ${firstLine.replace(/:$/, '')}`);
  }
  const ref = externalRef(document);
  if (ref !== undefined) {
    throw fileError(
      file,
      `its $ref "${ref}" points into another file; bundle it into one document first ` +
        `(npx @redocly/cli bundle ${file} -o liability-bundled.yaml)`,
    );
  }
  return document as object;
}

/**
 * Starts the sandbox serving, beside its own, the liability majors of OpenAPI files (bundled
 * YAML or JSON, paths relative to `cwd`): what `--liability-spec` of the sandbox command and of
 * `partner-apis sandbox start` do. A file that cannot be read or served is a
 * `SandboxConfigError` of one line naming it.
 *
 * @example
 * const sb = await startSandboxWithLiabilitySpecs({ port: 0 }, ['liability-v2.yaml']);
 * console.log(sb.urls.liabilityMajors[2]);
 */
export async function startSandboxWithLiabilitySpecs(
  options: SandboxOptions,
  files: readonly string[],
  cwd: string = process.cwd(),
): Promise<Sandbox> {
  const liabilityMajors = await Promise.all(files.map((file) => readLiabilitySpec(file, cwd)));
  try {
    return await startSandbox({ ...options, liabilityMajors });
  } catch (error) {
    if (!(error instanceof SandboxConfigError) || error.problem === undefined) throw error;
    // `liabilityMajors[i]` is the i-th file.
    const file = files.find((_, i) => error.option === `liabilityMajors[${i}]`);
    if (file === undefined) throw error;
    throw fileError(file, error.problem);
  }
}
