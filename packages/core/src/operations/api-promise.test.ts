import { afterEach, describe, expect, it } from 'vitest';
import { apiPromise, type WithResponse } from './api-promise.js';

const answer = <T>(data: T): WithResponse<T> => ({
  data,
  response: new Response(null, { status: 200 }),
  headers: new Headers(),
  requestId: 'req-1',
  correlationId: undefined,
  conversationId: undefined,
  attempts: 1,
});

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  unhandled.length = 0;
});

describe('apiPromise', () => {
  it('is a Promise of the data, and withResponse() gives the data with its metadata', async () => {
    const result = answer({ n: 1 });
    const promise = apiPromise(Promise.resolve(result));
    expect(promise).toBeInstanceOf(Promise);
    expect(await promise).toEqual({ n: 1 });
    expect(await promise.withResponse()).toBe(result);
  });

  it('derives plain promises, so then, catch and finally behave as on any promise', async () => {
    const promise = apiPromise(Promise.resolve(answer(2)));
    const doubled = promise.then((n) => n * 2);
    expect(doubled.constructor).toBe(Promise);
    expect(await doubled).toBe(4);
    expect(await promise.finally(() => undefined)).toBe(2);
  });

  it('a failure reaches both ways of asking', async () => {
    const failure = new Error('no');
    const promise = apiPromise<number>(Promise.reject(failure));
    await expect(promise).rejects.toBe(failure);
    await expect(promise.withResponse()).rejects.toBe(failure);
    await expect(promise.catch((error: unknown) => error)).resolves.toBe(failure);
  });

  it('a caller who asks only withResponse() of a failed call leaves no unhandled rejection', async () => {
    process.on('unhandledRejection', onUnhandled);
    const failure = new Error('no');
    await expect(apiPromise(Promise.reject(failure)).withResponse()).rejects.toBe(failure);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(unhandled).toEqual([]);
  });

  // A property added to each call's promise gives every promise a shape of its own, which made
  // V8 move later calls' objects to the old generation and cost each call a fifth more CPU.
  it('keeps withResponse on the prototype, so every promise has the same shape', () => {
    const promise = apiPromise(Promise.resolve(answer(3)));
    expect(Object.getOwnPropertyNames(promise)).toEqual([]);
    expect(typeof promise.withResponse).toBe('function');
  });
});
