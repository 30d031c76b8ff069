#!/usr/bin/env node
// @ts-check
import { basename } from 'node:path';
import { checkGenerated, generate } from './codegen.js';

const packageDir = process.cwd();
const name = basename(packageDir);

if (process.argv.includes('--check')) {
  const problems = await checkGenerated(packageDir);
  if (problems.length > 0) {
    for (const problem of problems) console.error(`packages/${name}/${problem}`);
    console.error('Generated code is out of date: run `pnpm generate` and commit the result.');
    process.exit(1);
  }
  console.log(`packages/${name}: generated code is current`);
} else {
  for (const file of await generate(packageDir)) console.log(`packages/${name}/${file}`);
}
