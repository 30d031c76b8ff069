import { ConfigurationError } from '@partner-apis/errors';
import { describe, expect, it } from 'vitest';
import { checkSecretExpiry } from './index.js';

const now = Date.parse('2026-11-22T12:00:00Z');

describe('checkSecretExpiry', () => {
  it.each([
    [{ secretCreatedAt: '2026-03-01T00:00:00Z' }, '2027-03-01', 98, 'ok'],
    [{ secretCreatedAt: '2026-01-21T12:00:00Z' }, '2027-01-21', 60, 'warn'],
    [{ secretCreatedAt: '2026-01-22T12:00:00Z' }, '2027-01-22', 61, 'ok'],
    [{ secretCreatedAt: new Date('2025-11-23T00:00:00Z') }, '2026-11-23', 0, 'warn'],
    [{ secretCreatedAt: '2025-11-22T12:00:00Z' }, '2026-11-22', 0, 'expired'],
    [{ secretExpiresAt: '2026-11-01T00:00:00Z' }, '2026-11-01', -22, 'expired'],
    [{ secretExpiresAt: Date.parse('2027-06-01T00:00:00Z') }, '2027-06-01', 190, 'ok'],
  ] as const)('%j → expires %s, %i days left, %s', (dates, day, daysLeft, level) => {
    const result = checkSecretExpiry(dates, now);
    expect(result.expiresAt.toISOString().slice(0, 10)).toBe(day);
    expect(result.daysLeft).toBe(daysLeft);
    expect(result.level).toBe(level);
  });

  it('counts a secret set on 29 February as valid until 1 March', () => {
    const { expiresAt } = checkSecretExpiry({ secretCreatedAt: '2028-02-29T00:00:00Z' }, now);
    expect(expiresAt.toISOString()).toBe('2029-03-01T00:00:00.000Z');
  });

  it('does not change a Date it was given', () => {
    const created = new Date('2026-01-01T00:00:00Z');
    checkSecretExpiry({ secretCreatedAt: created }, now);
    expect(created.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it.each([
    [{ secretCreatedAt: 'soon' }, 'secretCreatedAt: must be a valid date'],
    [{ secretExpiresAt: Number.NaN }, 'secretExpiresAt: must be a valid date'],
    [{}, 'secretCreatedAt: or secretExpiresAt must be given'],
  ])('refuses %j', (dates, message) => {
    expect(() => checkSecretExpiry(dates as never, now)).toThrow(ConfigurationError);
    expect(() => checkSecretExpiry(dates as never, now)).toThrow(message);
  });
});
