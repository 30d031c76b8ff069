// @ts-check

/**
 * The npm dist-tag `pnpm release` publishes under: `latest`, or on a maintenance branch of an
 * old major the `publishConfig.tag` its packages state (`maintenance-v1`), so a fix to the old
 * major never takes `latest` from the new one. Changesets passes `--tag latest` unless told
 * otherwise, whatever `publishConfig.tag` says.
 *
 * @param {{ name: string, manifest: Record<string, any> }[]} packages the public packages
 * @returns {string}
 * @throws {Error} when packages state different tags: publish them from different branches
 */
export function publishTagOf(packages) {
  const tags = new Map();
  for (const pkg of packages) {
    const tag = pkg.manifest.publishConfig?.tag;
    if (typeof tag === 'string' && tag !== 'latest')
      tags.set(tag, [...(tags.get(tag) ?? []), pkg.name]);
  }
  if (tags.size > 1) {
    const list = [...tags].map(([tag, names]) => `${tag} (${names.join(', ')})`).join('; ');
    throw new Error(
      `Packages state different publishConfig.tag values: ${list}. Release each maintenance line from its own branch.`,
    );
  }
  return [...tags.keys()][0] ?? 'latest';
}
