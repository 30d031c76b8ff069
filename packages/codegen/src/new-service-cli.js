#!/usr/bin/env node
// @ts-check
// `pnpm new-service <name> <spec>`: creates packages/<name> from the spec (see new-service.js),
// formats what it wrote, and says what to run next.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { newService } from './new-service.js';

const [name, spec] = process.argv.slice(2);
if (name === undefined || spec === undefined) {
  process.stderr.write('usage: pnpm new-service <name> <path of its OpenAPI 3.1 spec>\n');
  process.exit(2);
}
const root = process.env.INIT_CWD ?? process.cwd();
try {
  const written = await newService(root, name, spec);
  const prettier = createRequire(import.meta.url).resolve('prettier/bin/prettier.cjs');
  execFileSync(process.execPath, [prettier, '--write', '--log-level=warn', ...written], {
    cwd: root,
    stdio: 'inherit',
  });
  process.stdout.write(
    `${written.map((file) => `wrote ${file}`).join('\n')}\n` +
      'next: pnpm install && pnpm generate && pnpm build && pnpm --filter ' +
      `@partner-apis/${name} test\n`,
  );
} catch (error) {
  process.stderr.write(`new-service: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
