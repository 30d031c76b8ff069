#!/usr/bin/env node
// @ts-check
// `pnpm version-packages` runs this after `changeset version`: the release it just wrote into
// each CHANGELOG.md gets the headings every package uses (see changelog.js).
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { regroupLatestRelease } from './changelog.js';
import { findRepoRoot, listPublishablePackages } from './workspace.js';

const root = findRepoRoot();
for (const pkg of await listPublishablePackages(root)) {
  const file = join(pkg.dir, 'CHANGELOG.md');
  if (!existsSync(file)) continue;
  const before = await readFile(file, 'utf8');
  const after = regroupLatestRelease(before);
  if (after === before) continue;
  await writeFile(file, after);
  console.log(`${pkg.relativeDir}/CHANGELOG.md: ${pkg.version} under the CHANGELOG headings`);
}
