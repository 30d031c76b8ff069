import { readFile } from 'node:fs/promises';

/** The `vitest` and sandbox imports of an example, which the harness stands in for. */
const HARNESS_IMPORTS = /from '(?:vitest|@partner-apis\/sandbox)';/g;

/**
 * The TypeScript example of a package README (the first `ts` block under `## Example`), with
 * its `vitest` and `@partner-apis/sandbox` imports pointed at `harnessPath`. Throws when the
 * README has no such block, or when the block imports neither (then it is not a runnable test).
 */
export async function readmeExample(readmePath: string, harnessPath: string): Promise<string> {
  const readme = await readFile(readmePath, 'utf8');
  const section = readme.split(/^## Example\s*$/m)[1];
  const code = section?.match(/^```ts\n([\s\S]*?)^```$/m)?.[1];
  if (code === undefined) throw new Error(`${readmePath} has no \`\`\`ts block under ## Example`);
  if (code.search(HARNESS_IMPORTS) === -1) {
    throw new Error(`the example of ${readmePath} imports neither vitest nor the sandbox`);
  }
  return code.replace(HARNESS_IMPORTS, `from '${harnessPath}';`);
}
