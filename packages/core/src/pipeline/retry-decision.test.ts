import { describe, expect, it } from 'vitest';
import {
  decideRetry,
  type AttemptResult,
  type CallState,
  type RetryDecision,
  type RetryPolicy,
} from './retry-decision.js';

const policy: RetryPolicy = {
  attempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 8000,
  maxRetryAfterMs: 30_000,
  retryStatuses: new Set([429, 502, 503, 504]),
  retryWrites: false,
  throwHttpErrors: true,
};

const state: CallState = {
  attempt: 1,
  method: 'GET',
  now: 0,
  deadline: 120_000,
  random: 0.5,
};

const answer = (status: number, more: Partial<AttemptResult> = {}): AttemptResult =>
  ({ kind: 'answer', status, ...more }) as AttemptResult;

const retry = (delayMs: number): RetryDecision => ({ action: 'retry', delayMs });
const RETURN: RetryDecision = { action: 'return' };
const THROW: RetryDecision = { action: 'throw' };

describe('decideRetry', () => {
  it.each<[string, AttemptResult, Partial<CallState>, Partial<RetryPolicy>, RetryDecision]>([
    ['a 200 is returned', answer(200), {}, {}, RETURN],
    ['a 204 is returned', answer(204), {}, {}, RETURN],
    [
      'a 200 whose JSON does not parse: a GET tries again',
      answer(200, { malformed: true }),
      {},
      {},
      retry(125),
    ],
    [
      '… a PUT too (it is idempotent)',
      answer(200, { malformed: true }),
      { method: 'PUT' },
      {},
      retry(125),
    ],
    [
      '… a POST never (it was carried out)',
      answer(200, { malformed: true }),
      { method: 'POST' },
      {},
      THROW,
    ],
    [
      '… not even with retryWrites',
      answer(201, { malformed: true }),
      { method: 'POST' },
      { retryWrites: true },
      THROW,
    ],
    ['a 503 is retried after full-jitter backoff', answer(503), {}, {}, retry(125)],
    ['… which doubles per attempt', answer(503), { attempt: 2 }, {}, retry(250)],
    [
      '… up to maxDelayMs',
      answer(503),
      { attempt: 2, random: 0.99 },
      { maxDelayMs: 300 },
      retry(297),
    ],
    ['… or waits Retry-After', answer(503, { retryAfterMs: 2000 }), {}, {}, retry(2000)],
    [
      '… capped at maxRetryAfterMs',
      answer(503, { retryAfterMs: 86_400_000 }),
      {},
      {},
      retry(30_000),
    ],
    ['a 503 after the last attempt is thrown', answer(503), { attempt: 3 }, {}, THROW],
    [
      'a 503 when the call spent its retries on token requests is thrown',
      answer(503),
      { attempt: 1, retriesLeft: 0 },
      {},
      THROW,
    ],
    [
      '… while a retry left in the budget is taken',
      answer(503),
      { attempt: 1, retriesLeft: 1 },
      {},
      retry(125),
    ],
    [
      '… or returned when HTTP errors are not thrown',
      answer(503),
      { attempt: 3 },
      { throwHttpErrors: false },
      RETURN,
    ],
    [
      'a retry that would pass the deadline is not started',
      answer(503),
      { now: 119_900 },
      {},
      THROW,
    ],
    ['a POST 503 is not retried', answer(503), { method: 'POST' }, {}, THROW],
    ['… unless retryWrites', answer(503), { method: 'POST' }, { retryWrites: true }, retry(125)],
    [
      'a POST 429 is retried: it was refused unprocessed',
      answer(429),
      { method: 'POST' },
      {},
      retry(125),
    ],
    ['a 500 is not retried', answer(500), {}, {}, THROW],
    [
      '… unless the policy lists it (the token endpoint)',
      answer(500),
      {},
      { retryStatuses: new Set([500]) },
      retry(125),
    ],
    ['a 400 is thrown', answer(400), {}, {}, THROW],
    [
      '… or returned when HTTP errors are not thrown',
      answer(400),
      {},
      { throwHttpErrors: false },
      RETURN,
    ],
    ['a 401 that cannot be repaired is thrown', answer(401), {}, {}, THROW],
    [
      'no answer, not sent (refused): a POST is sent again',
      { kind: 'no-answer', sent: false },
      { method: 'POST' },
      {},
      retry(125),
    ],
    [
      'no answer, maybe sent: a GET is sent again',
      { kind: 'no-answer', sent: true },
      {},
      {},
      retry(125),
    ],
    ['… a POST is not', { kind: 'no-answer', sent: true }, { method: 'POST' }, {}, THROW],
    ['… a PATCH neither', { kind: 'no-answer', sent: true }, { method: 'PATCH' }, {}, THROW],
    [
      '… unless retryWrites',
      { kind: 'no-answer', sent: true },
      { method: 'PATCH' },
      { retryWrites: true },
      retry(125),
    ],
    [
      'no answer after the last attempt is thrown',
      { kind: 'no-answer', sent: false },
      { attempt: 3 },
      {},
      THROW,
    ],
    ['a fatal result (too large, invalid status) is thrown', { kind: 'fatal' }, {}, {}, THROW],
    [
      '… even when HTTP errors are not thrown',
      { kind: 'fatal' },
      {},
      { throwHttpErrors: false },
      THROW,
    ],
  ])('%s', (_, result, call, settings, expected) => {
    expect(decideRetry(result, { ...policy, ...settings }, { ...state, ...call })).toEqual(
      expected,
    );
  });
});
