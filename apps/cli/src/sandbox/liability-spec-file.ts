import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { UsageError } from '../usage-error.js';

/** The first `$ref` into another file: the sandbox serves bundled documents only. */
function externalRef(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key === '$ref' && typeof item === 'string' && !item.startsWith('#')) return item;
    const found = externalRef(item);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Reads the OpenAPI document of a liability major for `sandbox start --liability-spec`: a
 * bundled document, YAML or JSON. Any problem is a `UsageError` of one line naming the file;
 * whether the document is a liability major the sandbox can serve, the sandbox says.
 *
 * @example
 * const v1 = await readLiabilitySpecFile('liability-v1.yaml', process.cwd());
 * await startSandbox({ liabilityMajors: [v1] });
 */
export async function readLiabilitySpecFile(file: string, cwd: string): Promise<unknown> {
  const problem = (text: string) => new UsageError(`--liability-spec ${file}: ${text}`);
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), 'utf8');
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT') throw problem('there is no such file');
    if (code === 'EISDIR') throw problem('is a directory, not a file');
    throw problem(`cannot be read (${code ?? String(error)})`);
  }
  let document: unknown;
  try {
    // YAML 1.2 reads JSON as well.
    document = parseYaml(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const [firstLine = ''] = (error as Error).message.split('\n');
    throw problem(`is neither YAML nor JSON: ${firstLine.replace(/:$/, '')}`);
  }
  const ref = externalRef(document);
  if (ref !== undefined) {
    throw problem(
      `its $ref "${ref}" points into another file; bundle it into one document first ` +
        `(npx @redocly/cli bundle ${file} -o liability-bundled.yaml)`,
    );
  }
  return document;
}
