import { PassThrough } from 'node:stream';
import { expect, test } from 'vitest';
import { createProgram } from '../program.js';
import { completeWords } from './completion.js';

const { program } = createProgram({
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  env: {},
  cwd: process.cwd(),
});

test.each([
  [
    [''],
    [
      'exposure',
      'liability',
      'approvals',
      'riskengineering',
      'credentials',
      'config',
      'demo',
      'sandbox',
      'verify',
      'completion',
    ],
  ],
  [['li'], ['liability']],
  [
    ['exposure', ''],
    ['sov', 'locations', 'statement-of-values'],
  ],
  [['liability', 'quote', 'c'], ['create']],
  [
    ['exposure', 'locations', '--ou'],
    ['--output', '--out'],
  ],
  [
    ['exposure', 'locations', '--output', ''],
    ['table', 'json', 'ndjson', 'csv'],
  ],
  [['exposure', 'locations', '-o', 'n'], ['ndjson']],
  [['--env', 'u'], ['uat']],
  [['--env', 'uat', 'appr'], ['approvals']],
  [
    ['liability', 'quote', 'create', '--territory', ''],
    ['US', 'NON-US'],
  ],
  [
    ['completion', ''],
    ['bash', 'zsh', 'fish'],
  ],
  // Free values and files: nothing, so the shell completes file names.
  [['exposure', 'locations', '--out', ''], []],
  [['exposure', 'sov', 'validate', ''], []],
])('%j → %j', (words, expected) => {
  expect(completeWords(program, words)).toEqual(expected);
});

test('options of the command and of the program, never hidden commands', () => {
  const options = completeWords(program, ['approvals', 'list', '--']);
  expect(options).toEqual(
    expect.arrayContaining(['--employee', '--tier', '--output', '--env', '--debug', '--help']),
  );
  expect(completeWords(program, ['__'])).toEqual([]);
});
