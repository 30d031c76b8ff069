import { PassThrough, Writable } from 'node:stream';
import { expect, test } from 'vitest';
import { runCli } from './program.js';

test('an error outside any command is reported as a message with exit code 1, not thrown', async () => {
  let errors = '';
  const stderr = new Writable({
    write(chunk: Buffer, _encoding, done) {
      errors += chunk.toString();
      done();
    },
  });
  const stdout = Object.assign(new PassThrough(), {
    write: () => {
      throw new TypeError('stdout is gone');
    },
  });
  const code = await runCli(['completion', 'bash'], {
    stdout,
    stderr,
    env: {},
    cwd: process.cwd(),
  });
  expect(code).toBe(1);
  expect(errors).toMatch(/^internal error: stdout is gone /);
  expect(errors).not.toContain('TypeError');
});
