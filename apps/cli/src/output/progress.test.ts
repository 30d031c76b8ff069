import { afterEach, expect, test } from 'vitest';
import { clearProgress, createProgress } from './progress.js';

function terminal(isTTY: boolean, columns = 100) {
  const writes: string[] = [];
  return { isTTY, columns, write: (text: string) => writes.push(text), writes };
}

afterEach(clearProgress);

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

test('records, pages and records per second, redrawn at most every 100 ms, erased when done', () => {
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
    '\r\x1b[2K',
  ]);
});

test('the line leaves room for the ^C of Ctrl+C, so it never wraps', () => {
  const stream = terminal(true, 30);
  createProgress(stream, 'risk engineering locations', true).page(1024);
  expect(stream.writes).toEqual(['\r\x1b[2Krisk engineering locations:']);
});

test('an exit or an error erases a line still drawn', () => {
  const stream = terminal(true);
  createProgress(stream, 'exposure locations', true).page(1);
  clearProgress();
  expect(stream.writes.at(-1)).toBe('\r\x1b[2K');
  clearProgress();
  expect(stream.writes).toHaveLength(2);
});
