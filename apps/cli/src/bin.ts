#!/usr/bin/env node
import { runMain } from './index.js';

await runMain(process.argv.slice(2));
