import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeEach, expect, test } from 'vitest';
import { UsageError } from '../usage-error.js';
import { openOutput, removePendingOutputFiles } from './output-sink.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'partner-apis-out-'));
});

test('--out takes its name only when closed', async () => {
  const sink = await openOutput('data.csv', new PassThrough(), dir);
  await sink.write('a,b\n');
  expect(await readdir(dir)).toEqual([expect.stringMatching(/^\.data\.csv\.[0-9a-f]+\.partial$/)]);
  await sink.close();
  expect(await readdir(dir)).toEqual(['data.csv']);
  expect(await readFile(join(dir, 'data.csv'), 'utf8')).toBe('a,b\n');
});

test('an aborted write removes its file and leaves an earlier --out file as it was', async () => {
  await writeFile(join(dir, 'data.csv'), 'yesterday\n');
  const sink = await openOutput(join(dir, 'data.csv'), new PassThrough());
  await sink.write('half of it');
  await sink.abort();
  await sink.close();
  expect(await readdir(dir)).toEqual(['data.csv']);
  expect(await readFile(join(dir, 'data.csv'), 'utf8')).toBe('yesterday\n');
});

test('an interrupted process removes every file still being written', async () => {
  const sink = await openOutput('data.ndjson', new PassThrough(), dir);
  await sink.write('{}\n');
  removePendingOutputFiles();
  expect(await readdir(dir)).toEqual([]);
});

test('a folder as --out is a usage error before anything is written', async () => {
  await expect(openOutput('.', new PassThrough(), dir)).rejects.toThrow(
    'cannot write --out .: it is a folder',
  );
  expect(await readdir(dir)).toEqual([]);
});

test('a folder that does not exist is a usage error naming --out', async () => {
  const failure = openOutput('missing/data.csv', new PassThrough(), dir);
  await expect(failure).rejects.toBeInstanceOf(UsageError);
  await expect(failure).rejects.toThrow(
    'cannot write --out missing/data.csv: its folder does not exist',
  );
});
