import { readFileSync } from 'node:fs';

/**
 * The line `--version` and `partner-apis version` print: this package's version (from its
 * package.json, one level above `src/` and `dist/`), Node's, and the platform.
 */
export function versionLine(): string {
  const { version } = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  return `partner-apis ${version} (node ${process.version}, ${process.platform}-${process.arch})`;
}
