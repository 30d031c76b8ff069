#!/usr/bin/env node
import { serveMcp } from './index.js';

await serveMcp(process.argv.slice(2));
