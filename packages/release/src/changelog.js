// @ts-check
// The changelog functions of changesets (`.changeset/config.json` → `changelog`), and the step
// after `changeset version` that files each entry under the heading users look for.
//
// Changesets groups entries under headings of its own (Major, Minor, Patch Changes) that no
// plugin can change, and below 1.0.0 they would file a breaking change under "Minor Changes".
// So each entry carries its heading in an HTML comment, invisible when rendered, and
// `regroupLatestRelease` turns the release changesets just wrote into the headings every
// package uses, as the Azure SDKs do.

/** The CHANGELOG headings of every package, in the order a release lists them. */
export const CHANGELOG_HEADINGS = /** @type {const} */ ([
  'Breaking Changes',
  'Features Added',
  'Bugs Fixed',
  'Other Changes',
]);

/** @typedef {(typeof CHANGELOG_HEADINGS)[number]} ChangelogHeading */

/**
 * The part of a changeset that the changelog functions read.
 * @typedef {object} ChangesetText
 * @property {string} id the file name without `.md`
 * @property {string} summary the text under the front matter
 */

/** Where a changeset without headings files its text: by the bump it asks for. */
const HEADING_OF_BUMP = /** @type {const} */ ({
  major: 'Breaking Changes',
  minor: 'Features Added',
  patch: 'Bugs Fixed',
});

const MARKER = /^<!-- changelog: (.+) -->$/;
const HEADING = /^#{1,6}\s+(.+?)\s*#*\s*$/;
const CHANGESETS_HEADING = /^### (Major|Minor|Patch) Changes$/;

/** @param {string} heading */
const marker = (heading) => `<!-- changelog: ${heading} -->`;

/**
 * A changeset's summary as CHANGELOG entries under their headings. A summary may use the
 * headings itself (`### Breaking Changes`, …); text before any heading is filed by the bump:
 * major under Breaking Changes, minor under Features Added, patch under Bugs Fixed. Each list
 * item is an entry; text that is no list is one entry.
 *
 * @param {ChangesetText} changeset
 * @param {'major' | 'minor' | 'patch'} bump
 * @returns {{ heading: ChangelogHeading, text: string }[]} text without the leading `- `
 * @throws {Error} naming the changeset, for a heading that is not one of `CHANGELOG_HEADINGS`
 */
export function changelogEntries(changeset, bump) {
  /** @type {ChangelogHeading} */
  let heading = HEADING_OF_BUMP[bump];
  /** @type {Map<ChangelogHeading, string[]>} */
  const sections = new Map();
  for (const line of changeset.summary.split('\n')) {
    const match = HEADING.exec(line);
    if (match) {
      const name = /** @type {ChangelogHeading} */ (match[1]);
      if (!CHANGELOG_HEADINGS.includes(name)) {
        throw new Error(
          `.changeset/${changeset.id}.md: "${line.trim()}" is no CHANGELOG heading; use ${CHANGELOG_HEADINGS.map((h) => `### ${h}`).join(', ')}`,
        );
      }
      heading = name;
      continue;
    }
    sections.set(heading, [...(sections.get(heading) ?? []), line]);
  }
  return [...sections].flatMap(([name, lines]) =>
    splitEntries(lines).map((text) => ({ heading: name, text })),
  );
}

/**
 * The entries of one section: each top-level list item, or the whole text if it is no list.
 * @param {string[]} lines
 * @returns {string[]}
 */
function splitEntries(lines) {
  const text = trimBlankLines(lines);
  if (text.length === 0) return [];
  if (!/^[-*] /.test(text[0] ?? '')) return [text.join('\n')];
  /** @type {string[][]} */
  const items = [];
  for (const line of text) {
    if (/^[-*] /.test(line)) items.push([line.slice(2)]);
    else items.at(-1)?.push(line.replace(/^ {2}/, ''));
  }
  return items.map((item) => trimBlankLines(item).join('\n'));
}

/** @param {string[]} lines */
function trimBlankLines(lines) {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]?.trim() === '') start++;
  while (end > start && lines[end - 1]?.trim() === '') end--;
  return lines.slice(start, end);
}

/** @param {string} text */
const listItem = (text) =>
  `- ${text
    .split('\n')
    .map((line, i) => (i === 0 || line === '' ? line : `  ${line}`))
    .join('\n')}`;

/**
 * Changesets' release line: the changeset's entries, each after the comment that names its
 * heading. No commit hashes: users read what changed, not where.
 *
 * @param {ChangesetText} changeset
 * @param {'major' | 'minor' | 'patch'} type
 * @returns {Promise<string>}
 */
export async function getReleaseLine(changeset, type) {
  return changelogEntries(changeset, type)
    .map((entry) => `${marker(entry.heading)}\n${listItem(entry.text)}\n`)
    .join('\n');
}

/**
 * Changesets' line for a release caused only by new versions of dependencies: one entry under
 * Other Changes naming the versions, instead of a line per changeset hash.
 *
 * @param {unknown[]} _changesets
 * @param {{ name: string, newVersion: string }[]} dependenciesUpdated
 * @returns {Promise<string>}
 */
export async function getDependencyReleaseLine(_changesets, dependenciesUpdated) {
  if (dependenciesUpdated.length === 0) return '';
  const names = dependenciesUpdated.map((d) => `\`${d.name}\` ${d.newVersion}`);
  const list =
    names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `${marker('Other Changes')}\n- Uses ${list}.\n`;
}

/**
 * Files the entries of the newest release in a CHANGELOG (the one `changeset version` just
 * wrote) under `CHANGELOG_HEADINGS`, in their order, in place of changesets' own headings: a
 * package's first release under Features Added alone, and Breaking Changes only once a first
 * major was released (before, under Other Changes). Older releases, and a release without
 * heading comments, are left as they are, so running it twice changes nothing.
 *
 * @param {string} markdown a CHANGELOG.md
 * @returns {string}
 */
export function regroupLatestRelease(markdown) {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith('## '));
  if (start === -1) return markdown;
  const next = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  const end = next === -1 ? lines.length : next;
  const section = lines.slice(start + 1, end);
  if (!section.some((line) => MARKER.test(line))) return markdown;

  /** @type {Map<string, string[][]>} */
  const entries = new Map(CHANGELOG_HEADINGS.map((h) => [h, []]));
  /** @type {string[] | undefined} */
  let entry;
  let heading = 'Other Changes';
  /** @param {string} name */
  const startEntry = (name) => {
    entry = [];
    if (!entries.has(name)) entries.set(name, []);
    entries.get(name)?.push(entry);
    return entry;
  };
  for (const line of section) {
    const changesetsHeading = CHANGESETS_HEADING.exec(line);
    const marked = MARKER.exec(line)?.[1];
    if (changesetsHeading) {
      // Entries without a heading comment were written by another changelog plugin.
      heading = changesetsHeading[1] === 'Major' ? 'Breaking Changes' : 'Other Changes';
      entry = undefined;
    } else if (marked !== undefined) {
      heading = marked;
      startEntry(heading);
    } else if (line.startsWith('- ') && (!entry || entry.some((l) => l.startsWith('- ')))) {
      startEntry(heading).push(line);
    } else if (entry) {
      entry.push(line);
    }
  }
  // A first release has nothing to break or fix, and before a first major there is no promise
  // a change could break: those entries are what the release adds, or other changes.
  const older = lines.slice(end).filter((line) => line.startsWith('## '));
  const refiled = older.length === 0 ? 'Features Added' : undefined;
  const afterMajor = older.some((line) => /^## [1-9]\d*\./.test(line));
  for (const [heading, items] of [...entries]) {
    const to =
      refiled ?? (heading === 'Breaking Changes' && !afterMajor ? 'Other Changes' : heading);
    if (to === heading) continue;
    entries.get(to)?.push(...items);
    entries.set(heading, []);
  }
  const body = [...entries]
    .filter(([, items]) => items.length > 0)
    .map(
      ([heading, items]) =>
        `### ${heading}\n\n${items.map((item) => trimBlankLines(item).join('\n')).join('\n')}\n`,
    );
  const before = lines.slice(0, start + 1).join('\n');
  const after = lines.slice(end).join('\n');
  return `${before}\n\n${body.join('\n')}${after === '' ? '' : `\n${after}`}`;
}
