import { expect, test } from 'vitest';
import { inCliWords } from './service-session.js';

test("a client's warning names the flag of the command line, not the library's option", () => {
  const warning =
    'quotes.search: createdFrom must be a date-time (got 2026-03-01); sent anyway, since the spec only assumes this constraint (x-upstream-gap). Set assumptions: "off" to silence this warning.';
  expect(inCliWords(warning)).toBe(
    'quotes.search: createdFrom must be a date-time (got 2026-03-01); sent anyway, since the spec only assumes this constraint (x-upstream-gap). --quiet silences warnings.',
  );
  expect(inCliWords(warning)).not.toContain('assumptions');
});
