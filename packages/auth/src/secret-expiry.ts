import { ConfigurationError } from '@partner-apis/errors';

/** A date as a `Date`, an ISO 8601 string or ms since the epoch. */
export type DateInput = Date | string | number;

/** When a secret was created or last changed, or when it expires. */
export type SecretDates = { secretCreatedAt: DateInput } | { secretExpiresAt: DateInput };

/** How close a secret is to its expiry. */
export interface SecretExpiry {
  readonly expiresAt: Date;
  /** Whole days until expiry; negative once expired. */
  readonly daysLeft: number;
  /** `warn` within 60 days of expiry (when the portal e-mails), `expired` from the expiry on. */
  readonly level: 'ok' | 'warn' | 'expired';
}

const DAY_MS = 86_400_000;
/** The portal sends its expiry notice two months ahead. */
export const SECRET_EXPIRY_WARNING_DAYS = 60;

function toDate(option: string, value: DateInput): Date {
  const date = value instanceof Date ? new Date(value.getTime()) : new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw new ConfigurationError(option, 'must be a valid date (a Date, ISO 8601 text or ms)');
  }
  return date;
}

/**
 * Tells how long a client secret stays valid: secrets expire one year after they were created
 * or changed. Give whichever date you know.
 *
 * @example
 * const { daysLeft, level, expiresAt } = checkSecretExpiry({ secretCreatedAt: '2026-01-15' });
 * if (level !== 'ok') console.warn(`secret expires ${expiresAt.toISOString()} (${daysLeft} days)`);
 */
export function checkSecretExpiry(dates: SecretDates, now: number = Date.now()): SecretExpiry {
  let expiresAt: Date;
  if ('secretExpiresAt' in dates) {
    expiresAt = toDate('secretExpiresAt', dates.secretExpiresAt);
  } else if ('secretCreatedAt' in dates) {
    expiresAt = toDate('secretCreatedAt', dates.secretCreatedAt);
    expiresAt.setUTCFullYear(expiresAt.getUTCFullYear() + 1);
  } else {
    throw new ConfigurationError('secretCreatedAt', 'or secretExpiresAt must be given');
  }
  const msLeft = expiresAt.getTime() - now;
  const daysLeft = Math.floor(msLeft / DAY_MS);
  const level =
    msLeft <= 0 ? 'expired' : msLeft <= SECRET_EXPIRY_WARNING_DAYS * DAY_MS ? 'warn' : 'ok';
  return { expiresAt, daysLeft, level };
}
