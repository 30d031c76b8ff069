/**
 * Characters a terminal may act on instead of showing: C0 controls (ESC starts CSI and OSC
 * sequences), DEL, C1 controls (0x9B is an 8-bit CSI, 0x9D an OSC), the line and paragraph
 * separators, and the bidirectional overrides that can make text read differently than it is.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The same, less tab, line feed and carriage return, which CSV quoting keeps as data. */
const CONTROL_BUT_LINE_BREAKS =
  // eslint-disable-next-line no-control-regex -- as above
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** What a JSON string escape cannot carry for us: JSON.stringify already escapes C0. */
const JSON_UNESCAPED_CONTROL = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escaped(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
}

/**
 * Shows every control character of text from a server as a visible escape (`\x1b`), so that no
 * record, message or file name can move the cursor, retitle the window or hide other text.
 * `keep` lists the characters to leave as they are (a line feed between lines, a tab).
 */
export function visibleText(text: string, keep = ''): string {
  return text.replace(CONTROL, (char) => (keep.includes(char) ? char : escaped(char)));
}

/**
 * A CSV cell's text with control characters escaped, except tab and line breaks, which are data
 * that CSV quotes.
 */
function csvText(text: string): string {
  return text.replace(CONTROL_BUT_LINE_BREAKS, escaped);
}

/**
 * JSON text with the controls that `JSON.stringify` leaves raw (DEL, C1, separators, bidi
 * overrides) written as `\u` escapes: the same JSON value, nothing a terminal acts on.
 */
export function jsonText(json: string): string {
  return json.replace(
    JSON_UNESCAPED_CONTROL,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * A CSV cell that a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab
 * or a carriage return) gets a leading `'`, as OWASP recommends against CSV injection. Numbers
 * are left alone: `-5` from a number field is a value, not a formula.
 */
export function csvCell(text: string): string {
  const safe = csvText(text);
  return /^[=+\-@\t\r]/.test(safe) ? `'${safe}` : safe;
}
