import { expect, test } from 'vitest';
import { createProgress } from './progress.js';

function terminal(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, write: (text: string) => writes.push(text), writes };
}

test('nothing is drawn when stderr is not a terminal', () => {
  const stream = terminal(false);
  const progress = createProgress(stream, 'exposure locations', true);
  progress.page(128);
  progress.done();
  expect(stream.writes).toEqual([]);
});

test('nothing is drawn when the caller disables it', () => {
  const stream = terminal(true);
  createProgress(stream, 'exposure locations', false).page(10);
  expect(stream.writes).toEqual([]);
});

test('records, pages and records per second, redrawn at most every 100 ms', () => {
  const stream = terminal(true);
  let now = 1_000;
  const progress = createProgress(stream, 'exposure locations', true, () => now);
  now = 1_500;
  progress.page(1024);
  now = 1_550;
  progress.page(1024);
  now = 2_000;
  progress.page(952);
  progress.done();
  expect(stream.writes).toEqual([
    '\r\x1b[2Kexposure locations: 1,024 records, 1 pages, 2,048 records/s',
    '\r\x1b[2Kexposure locations: 3,000 records, 3 pages, 3,000 records/s',
    '\r\x1b[2Kexposure locations: 3,000 records, 3 pages, 3,000 records/s',
    '\n',
  ]);
});
