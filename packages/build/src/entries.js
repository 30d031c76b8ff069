// @ts-check
import { builtinModules } from 'node:module';

/**
 * One file a package.json points at, and the source it is built from.
 * @typedef {object} BuildEntry
 * @property {string} out path inside `dist/` without the extension, e.g. `index`, `cli`
 * @property {string} source the source file, relative to the package, e.g. `src/index.ts`
 */

/**
 * What a package's manifest asks the build for: the JavaScript files and the declaration files
 * that `exports` and `bin` name, each with the source it comes from.
 * @typedef {object} BuildPlan
 * @property {BuildEntry[]} scripts one ESM file each
 * @property {BuildEntry[]} declarations one `.d.ts` file each
 */

const DIST_SCRIPT = /^\.\/dist\/(.+)\.js$/;
const DIST_DECLARATIONS = /^\.\/dist\/(.+)\.d\.ts$/;

/**
 * Reads the build entries from a package.json: every `./dist/*.js` and `./dist/*.d.ts` that
 * `exports` (any subpath, any condition), `imports` or `bin` names is built from `src/` with the same path,
 * so adding an entry point or an export condition is an edit of package.json only.
 *
 * @example
 * buildPlan({ exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } });
 * // { scripts: [{ out: 'index', source: 'src/index.ts' }],
 * //   declarations: [{ out: 'index', source: 'src/index.ts' }] }
 * @param {{ exports?: unknown, imports?: unknown, bin?: unknown }} manifest
 * @returns {BuildPlan}
 */
export function buildPlan(manifest) {
  /** @type {Map<string, BuildEntry>} */
  const scripts = new Map();
  /** @type {Map<string, BuildEntry>} */
  const declarations = new Map();
  const targets = [
    ...leaves(manifest.exports, 'exports'),
    ...leaves(manifest.imports, 'imports'),
    ...leaves(manifest.bin, 'bin'),
  ];
  for (const { path, target } of targets) {
    const declaration = DIST_DECLARATIONS.exec(target);
    const script = declaration ? null : DIST_SCRIPT.exec(target);
    const out = declaration?.[1] ?? script?.[1];
    if (out === undefined) {
      if (target === './package.json') continue;
      throw new Error(
        `${path} points at ${target}: a built file must be ./dist/<name>.js or ./dist/<name>.d.ts`,
      );
    }
    const entry = { out, source: `src/${out}.ts` };
    (declaration ? declarations : scripts).set(out, entry);
  }
  if (scripts.size === 0)
    throw new Error('package.json names no ./dist/*.js in "exports" or "bin"');
  return { scripts: [...scripts.values()], declarations: [...declarations.values()] };
}

/**
 * @param {unknown} value
 * @param {string} path
 * @returns {{ path: string, target: string }[]}
 */
function leaves(value, path) {
  if (typeof value === 'string') return [{ path, target: value }];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    leaves(inner, `${path}[${JSON.stringify(key)}]`),
  );
}

const BUILTINS = new Set(builtinModules);

/**
 * How the bundle treats an import of a package: kept as an import when the package is a
 * dependency (a user installs it once, and every package that needs it shares it), a Node
 * built-in, or the package itself (an entry importing another of its own entries); any other
 * package would be copied into the bundle unseen, so it is refused.
 *
 * @example
 * const rule = importRule({ name: '@partner-apis/core', dependencies: { 'openapi-fetch': '^0.17.0' } });
 * rule('openapi-fetch'); // 'external'
 * rule('left-pad'); // 'undeclared'
 * @param {{ name?: string, imports?: object, dependencies?: object, peerDependencies?: object, optionalDependencies?: object }} manifest
 * @returns {(specifier: string) => 'external' | 'undeclared'}
 */
export function importRule(manifest) {
  const allowed = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
    ...(manifest.name ? [manifest.name] : []),
  ]);
  // `#name` imports of the package's own `imports` map pick a file per runtime when loaded:
  // bundling one in would fix the choice at build time.
  const ownImports = new Set(Object.keys(manifest.imports ?? {}));
  return (specifier) => {
    if (ownImports.has(specifier)) return 'external';
    if (specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0] ?? '')) {
      return 'external';
    }
    return allowed.has(packageName(specifier)) ? 'external' : 'undeclared';
  };
}

/**
 * @param {string} specifier a bare import such as `@scope/name/sub` or `name/sub`
 * @returns {string} the package name
 */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}
