import { PassThrough } from 'node:stream';
import { expect, test } from 'vitest';
import { createCommandContext } from './command-context.js';

function io(stdoutIsTTY: boolean, stderrIsTTY: boolean) {
  const written: string[] = [];
  const stderr = Object.assign(new PassThrough(), { isTTY: stderrIsTTY });
  stderr.on('data', (chunk: Buffer) => written.push(chunk.toString()));
  const stdout = Object.assign(new PassThrough(), { isTTY: stdoutIsTTY });
  return { io: { stdout, stderr, env: {}, cwd: '/' }, written };
}

async function drawn(
  stdoutIsTTY: boolean,
  stderrIsTTY: boolean,
  options: { format: 'table' | 'ndjson'; out?: string },
) {
  const { io: cliIo, written } = io(stdoutIsTTY, stderrIsTTY);
  const progress = createCommandContext(cliIo).progress('locations', options);
  progress.page(10);
  progress.done();
  await new Promise((resolve) => setImmediate(resolve));
  return written.join('');
}

test('progress is drawn when stderr is a terminal, then erased', async () => {
  const erase = '\r\x1b[2K';
  const drawnLine = await drawn(false, true, { format: 'ndjson' });
  expect(drawnLine.startsWith(`${erase}locations: 10 records, 1 pages, `)).toBe(true);
  expect(drawnLine.endsWith(`records/s${erase}`)).toBe(true);
  expect(await drawn(true, true, { format: 'ndjson', out: 'x.ndjson' })).toContain('10 records');
  expect(await drawn(true, true, { format: 'table' })).toContain('10 records');
});

test('no progress when stderr is not a terminal', async () => {
  expect(await drawn(false, false, { format: 'ndjson' })).toBe('');
});

test('data for the terminal erases the progress line before it is written', async () => {
  const { io: cliIo, written } = io(true, true);
  const context = createCommandContext(cliIo);
  context.progress('locations', { format: 'table' }).page(10);
  const sink = await context.output({ format: 'table' });
  await sink.write('locationId\n');
  await new Promise((resolve) => setImmediate(resolve));
  expect(written.join('')).toContain('10 records, 1 pages, ');
  expect(written.join('').endsWith('records/s\r\x1b[2K')).toBe(true);
});

test('notes go to stderr, one per line', async () => {
  const { io: cliIo, written } = io(false, false);
  createCommandContext(cliIo).note('No credentials configured');
  await new Promise((resolve) => setImmediate(resolve));
  expect(written.join('')).toBe('No credentials configured\n');
});
