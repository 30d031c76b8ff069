// Resolvers that ignore `exports` (Parcel's default one, TypeScript's `moduleResolution: node`)
// read a subpath such as `@partner-apis/core/internal` as a folder of the package: every subpath
// export of a public package has that folder, shipped, with a package.json that points where the
// export does: for an export with a `node` condition, `main` at the Node file and `browser` at
// the other (Parcel builds for browsers by default).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRepoRoot, listPublishablePackages } from '@partner-apis/release';
import { expect, it } from 'vitest';

type Conditions = Record<string, string>;

const root = findRepoRoot(fileURLToPath(import.meta.url));
const subpaths = (await listPublishablePackages(root)).flatMap((pkg) =>
  Object.entries((pkg.manifest.exports ?? {}) as Record<string, Conditions | string>)
    .filter(([subpath]) => subpath !== '.' && subpath !== './package.json')
    .map(([subpath, conditions]) => ({ pkg, folder: subpath.slice(2), conditions })),
);

/** The folder's package.json that an export asks for: its paths are relative to the folder. */
function folderManifest(folder: string, conditions: Conditions | string) {
  const up = (target: string | undefined) =>
    target === undefined
      ? undefined
      : `${'../'.repeat(folder.split('/').length)}${target.slice(2)}`;
  const {
    types,
    node,
    default: fallback,
  } = typeof conditions === 'string' ? { default: conditions } : conditions;
  return node === undefined
    ? { main: up(fallback), types: up(types) }
    : { main: up(node), browser: up(fallback), types: up(types) };
}

it('finds the subpath exports of the public packages', () => {
  expect(subpaths.map(({ pkg, folder }) => `${pkg.name}/${folder}`)).toContain(
    '@partner-apis/core/internal',
  );
});

it.each(subpaths.map((each) => [`${each.pkg.name}/${each.folder}`, each] as const))(
  '%s has a folder that points where its export does, and ships it',
  async (_name, { pkg, folder, conditions }) => {
    const manifest: unknown = JSON.parse(
      await readFile(join(pkg.dir, folder, 'package.json'), 'utf8'),
    );
    expect(manifest).toEqual(folderManifest(folder, conditions));
    expect(pkg.manifest.files, `add "${folder}" to "files" of ${pkg.relativeDir}`).toContain(
      folder,
    );
  },
);
