// @ts-check
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The part of `.changeset/config.json` the release checks read.
 * @typedef {object} ChangesetConfig
 * @property {string[]} [ignore]
 * @property {string} [access]
 * @property {unknown} [changelog]
 */

/**
 * Reads `.changeset/config.json`.
 *
 * @param {string} root
 * @returns {Promise<ChangesetConfig>}
 */
export async function readChangesetConfig(root) {
  return JSON.parse(await readFile(join(root, '.changeset/config.json'), 'utf8'));
}

/**
 * The private apps (workspace packages under `apps/` with `"private": true`) that
 * `.changeset/config.json` does not ignore: ignoring them keeps changesets from planning a
 * release of one. An app that is published (the command line) is versioned like a library.
 * Changesets refuses to ignore a package that does not exist, so an app is added to `ignore`
 * when it is created, not before.
 *
 * @param {ChangesetConfig} config
 * @param {{ name: string, relativeDir: string, publishable: boolean }[]} packages
 * @returns {string[]}
 */
export function missingIgnores(config, packages) {
  const ignored = new Set(config.ignore ?? []);
  return packages
    .filter((p) => p.relativeDir.startsWith('apps/') && !p.publishable && !ignored.has(p.name))
    .map((p) => p.name);
}
