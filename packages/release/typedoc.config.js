// @ts-check
// `pnpm docs:api`: the TypeDoc reference of every public package, into docs/api/ at the repository
// root (not committed). The packages are found as the release checks find them, so a new
// public package appears without a change here.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OptionDefaults } from 'typedoc';
import { findRepoRoot, listPublishablePackages } from './src/workspace.js';

const root = findRepoRoot(fileURLToPath(import.meta.url));
const packages = await listPublishablePackages(root);

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: 'partner-apis',
  readme: join(root, 'README.md'),
  entryPointStrategy: 'packages',
  entryPoints: packages.map((p) => p.dir),
  packageOptions: {
    entryPoints: ['src/index.ts'],
    // The build config: what is published, without the tests.
    tsconfig: 'tsconfig.build.json',
    // openapi-typescript writes `@description` and `@constant` into the generated types.
    blockTags: [...OptionDefaults.blockTags, '@description', '@constant'],
    excludePrivate: true,
    excludeInternal: true,
    // The reference is built locally and not published, so it links no sources.
    disableSources: true,
    disableGit: true,
  },
  // `pnpm check` builds the reference too: a type that public types mention but that is neither
  // exported nor listed in the package's typedoc.json fails it.
  treatWarningsAsErrors: true,
  out: join(root, 'docs/api'),
  cleanOutputDir: true,
  githubPages: false,
};
