#!/usr/bin/env node
// @ts-check
import { basename, dirname } from 'node:path';
import { buildPackage } from './build.js';

const packageDir = process.cwd();
const where = `${basename(dirname(packageDir))}/${basename(packageDir)}`;

try {
  for (const file of await buildPackage(packageDir)) {
    console.log(`${where}/${file.path}  ${(file.bytes / 1024).toFixed(1)} kB`);
  }
} catch (error) {
  console.error(`${where}: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
