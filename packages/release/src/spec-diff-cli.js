#!/usr/bin/env node
// @ts-check
import { parseArgs } from 'node:util';
import { changesetToAdd, formatVerdicts, runSpecDiffGate } from './spec-diff-gate.js';
import { findRepoRoot } from './workspace.js';

const usage = `Usage: pnpm spec:diff [--base REF]

Compares every spec with its version at the base and fails when the pending changesets release
a package generated from it by less than the change needs, or give a service package another
major version than its spec's info.version (the version rule). One verdict, and the changeset
that fixes it.

  --base REF   compare every package with REF (a branch, tag or commit). Without it, each
               package is compared with its latest release tag <name>@<version>; a package
               never released counts as new, which needs a minor release.`;

/** @type {{ values: { base?: string, help?: boolean } }} */
let parsed;
try {
  parsed = parseArgs({
    options: { base: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error}\n\n${usage}`);
  process.exit(2);
}
if (parsed.values.help) {
  console.log(usage);
  process.exit(0);
}

/** @type {import('./spec-diff-gate.js').PackageVerdict[]} */
let verdicts;
try {
  verdicts = await runSpecDiffGate({ root: findRepoRoot(), base: parsed.values.base });
} catch (error) {
  console.error(`spec:diff: ${error instanceof Error ? error.message : error}`);
  process.exit(2);
}
console.log(formatVerdicts(verdicts));
const failed = verdicts.filter((v) => v.problem);
if (failed.length > 0) {
  const changeset = changesetToAdd(verdicts);
  if (changeset) {
    console.log(
      `\nAdd this changeset (pnpm changeset), and say under Breaking Changes, Features Added, Bugs Fixed or Other Changes what a user notices:\n${changeset}`,
    );
  }
  console.error(`\nspec:diff: ${failed.length} package(s) need another release.`);
  process.exit(1);
}
console.log(
  `\nspec:diff: the pending changesets cover every spec change, and every major follows its upstream.`,
);
