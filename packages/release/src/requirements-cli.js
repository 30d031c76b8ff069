#!/usr/bin/env node
// @ts-check
// `pnpm check` runs this first: it installs what the tests need where it can, else stops with
// one line that says how.
import { ensureRedis } from './requirements.js';

const problem = ensureRedis();
if (problem !== undefined) {
  process.stderr.write(`${problem}\n`);
  process.exitCode = 1;
}
