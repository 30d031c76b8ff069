#!/usr/bin/env node
// @ts-check
// `pnpm release` after `pnpm check`: `changeset publish` under the dist-tag of the branch
// (see publish-tag.js), and the `<name>@<version>` git tags of what it published.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { publishTagOf } from './publish-tag.js';
import { findRepoRoot, listPublishablePackages } from './workspace.js';

const root = findRepoRoot();
let tag;
try {
  tag = publishTagOf(await listPublishablePackages(root));
} catch (error) {
  console.error(`release: ${error instanceof Error ? error.message : error}`);
  process.exit(2);
}
const changesets = createRequire(import.meta.url).resolve('@changesets/cli/bin.js');
console.log(`release: publishing under the dist-tag ${tag}`);
const { status } = spawnSync(
  process.execPath,
  [changesets, 'publish', '--tag', tag, ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
process.exit(status ?? 1);
