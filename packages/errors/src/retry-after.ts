// The three date forms RFC 9110 §5.6.7 obliges a recipient to read.
const IMF_FIXDATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC_850 = /^[A-Za-z]{6,9}, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const ASCTIME = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/**
 * Reads a `Retry-After` header (RFC 9110 §10.2.3) as milliseconds from `now`: delay seconds or
 * an HTTP date; a date in the past gives 0. Anything else (missing, negative, garbage) gives
 * `undefined`. Never throws. Capping a long wait is the caller's decision.
 *
 * @example
 * parseRetryAfter('120', Date.now());                           // → 120000
 * parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.now()); // → 0 (past)
 * parseRetryAfter('soon', Date.now());                          // → undefined
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const ms = Number(text) * 1000;
    return Number.isSafeInteger(ms) ? ms : Number.MAX_SAFE_INTEGER;
  }
  let date: string;
  if (IMF_FIXDATE.test(text) || RFC_850.test(text)) date = text;
  else if (ASCTIME.test(text))
    date = `${text} GMT`; // asctime carries no zone but means GMT
  else return undefined;
  const at = Date.parse(date);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
