import { PassThrough } from 'node:stream';
import { expect, test } from 'vitest';
import { createProgram } from '../program.js';
import { completeWords } from './completion.js';

const { program } = await createProgram({
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  env: {},
  cwd: process.cwd(),
});

test.each([
  [['li'], ['liability']],
  [
    ['exposure', ''],
    ['statement-of-values', 'locations'],
  ],
  [['liability', 'quotes', 'c'], ['create']],
  [
    ['exposure', 'locations', '--ou'],
    ['--output', '--out'],
  ],
  [
    ['exposure', 'locations', '--output', ''],
    ['table', 'json', 'ndjson', 'csv'],
  ],
  [['exposure', 'locations', '-o', 'n'], ['ndjson']],
  // bash splits `--output=` at the `=`; zsh and fish keep it in the word.
  [['exposure', 'locations', '--output', '=', 'j'], ['json']],
  [['exposure', 'locations', '--output=nd'], ['--output=ndjson']],
  [['--env', 'u'], ['uat']],
  [['--env', 'uat', 'appr'], ['approvals']],
  [
    ['liability', 'quotes', 'create', '--territory', ''],
    ['US', 'NON-US'],
  ],
  [
    ['completion', ''],
    ['bash', 'zsh', 'fish'],
  ],
  // Free values and files: nothing, so the shell completes file names.
  [['exposure', 'locations', '--out', ''], []],
  [['exposure', 'statement-of-values', 'validate', ''], []],
  [['--profile', ''], []],
  [['exposure', 'sov'], []],
])('%j → %j', (words, expected) => {
  expect(completeWords(program, words)).toEqual(expected);
});

test('the commands of the program, never a former name nor the hidden __complete', () => {
  const commands = completeWords(program, ['']);
  expect(commands).toEqual(
    expect.arrayContaining([
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
      'version',
    ]),
  );
  expect(commands).not.toContain('__complete');
  expect(completeWords(program, ['liability', ''])).toEqual(['sellers', 'quotes']);
});

test('options of the command and of the program, never hidden commands', () => {
  const options = completeWords(program, ['approvals', 'approvals', 'list', '--']);
  expect(options).toEqual(
    expect.arrayContaining([
      '--employee-number',
      '--tier',
      '--limit',
      '--query',
      '--output',
      '--env',
      '--debug',
      '--help',
    ]),
  );
  expect(options).not.toContain('--max-items');
  expect(completeWords(program, ['__'])).toEqual([]);
});

test('--profile: the profiles of the config file, so no file name is offered', () => {
  const profiles = (option: { long?: string | undefined }) =>
    option.long === '--profile' ? ['acme-uat', 'acme-prod', 'local'] : [];
  expect(completeWords(program, ['--profile', 'acme'], profiles)).toEqual([
    'acme-uat',
    'acme-prod',
  ]);
  expect(completeWords(program, ['exposure', 'locations', '-p', ''], profiles)).toEqual([
    'acme-uat',
    'acme-prod',
    'local',
  ]);
});
