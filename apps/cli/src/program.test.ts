import { PassThrough, Writable } from 'node:stream';
import { expect, test } from 'vitest';
import { runCli, withCurrentNames } from './program.js';

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

test.each([
  [
    ['liability', 'quote', 'search'],
    ['liability', 'quotes', 'search'],
  ],
  [
    ['--env', 'uat', '-q', 'liability', 'seller', 'create', '--name', 'X'],
    ['--env', 'uat', '-q', 'liability', 'sellers', 'create', '--name', 'X'],
  ],
  [
    ['help', 'exposure', 'sov', 'validate'],
    ['help', 'exposure', 'statement-of-values', 'validate'],
  ],
  [
    ['approvals', 'list', '--employee=100234', '--tier', 'gold'],
    ['approvals', 'approvals', 'list', '--employee-number=100234', '--tier', 'gold'],
  ],
])('the former command line %j runs as %j', (given, current) => {
  const { args, notice } = withCurrentNames(given);
  expect(args).toEqual(current);
  expect(notice).toMatch(/^note: `partner-apis [a-z ]+` is now `partner-apis [a-z- ]+`/);
});

test('a current command line is left as it is, with no notice', () => {
  // `quote` as a value, not a command: only the words naming the command are renamed.
  const given = ['--profile', 'quote', 'liability', 'quotes', 'search', '--seller-id', 'quote'];
  expect(withCurrentNames(given)).toEqual({ args: given });
});
