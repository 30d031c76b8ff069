import { describe, expect, it } from 'vitest';
import { createVirtualTime } from './index.js';

describe('createVirtualTime', () => {
  it('wakes sleepers in order of wake time and jumps time to each', async () => {
    const time = createVirtualTime(0);
    const woke: Array<[string, number]> = [];
    await Promise.all([
      time.sleep(300).then(() => woke.push(['c', time.now()])),
      time.sleep(100).then(() => woke.push(['a', time.now()])),
      time.sleep(200).then(() => woke.push(['b', time.now()])),
    ]);
    expect(woke).toEqual([
      ['a', 100],
      ['b', 200],
      ['c', 300],
    ]);
    expect(time.sleeps).toEqual([300, 100, 200]);
  });

  it('rejects with the abort reason and leaves time alone', async () => {
    const time = createVirtualTime(0);
    const controller = new AbortController();
    const pending = time.sleep(1000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    await expect(time.sleep(1, controller.signal)).rejects.toThrow('stop');
    expect(time.now()).toBe(0);
    time.advance(50);
    expect(time.now()).toBe(50);
  });
});
