/** The package a client is built from, as its `User-Agent` names it. */
export interface PackageIdentity {
  /** The npm name, e.g. `@partner-apis/approvals`. */
  readonly name: string;
  /**
   * Its version, e.g. `1.2.3`; `undefined` when the code runs from source (tests), where no
   * build has set it.
   */
  readonly version?: string | undefined;
}

/** What `runtimeToken` reads of the global object; every part may be missing. */
export interface RuntimeGlobals {
  readonly Bun?: { readonly version?: unknown } | undefined;
  readonly Deno?: { readonly version?: { readonly deno?: unknown } | undefined } | undefined;
  readonly process?: { readonly versions?: { readonly node?: unknown } | undefined } | undefined;
  readonly navigator?: { readonly userAgent?: unknown } | undefined;
}

/** `1.4.5` → `1.4`: the major and minor version say enough and vary less. */
function majorMinor(version: unknown): string | undefined {
  if (typeof version !== 'string') return undefined;
  return /^v?(\d+\.\d+)/.exec(version)?.[1];
}

/**
 * The runtime's product token: `node/20.19`, `bun/1.4`, `deno/2.9` or `workerd`; `undefined`
 * in a browser (which sends its own `User-Agent`) or any runtime it does not know. Bun and
 * Deno also answer to `process.versions.node`, so they are asked first.
 */
export function runtimeToken(
  globals: RuntimeGlobals = globalThis as RuntimeGlobals,
): string | undefined {
  const bun = majorMinor(globals.Bun?.version);
  if (bun !== undefined) return `bun/${bun}`;
  const deno = majorMinor(globals.Deno?.version?.deno);
  if (deno !== undefined) return `deno/${deno}`;
  const node = majorMinor(globals.process?.versions?.node);
  if (node !== undefined) return `node/${node}`;
  if (globals.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd';
  return undefined;
}

/** `@partner-apis/approvals` → `partner-apis-approvals`: a product token has no `@` or `/`. */
function productName(name: string): string {
  return name.replace(/^@/, '').replaceAll('/', '-');
}

/**
 * The `User-Agent` of a client: the caller's own value first when there is one (the
 * `userAgent` option), then the package and its version, then the runtime (`runtimeToken` of
 * `globals`). In a browser, or a runtime it does not know, only the caller's own value, or
 * `undefined` for none: a browser names itself, and a `User-Agent` set there costs every
 * cross-origin call a CORS preflight.
 */
export function userAgent(
  pkg: PackageIdentity,
  own?: string | undefined,
  globals: RuntimeGlobals = globalThis as RuntimeGlobals,
): string | undefined {
  const mine = own?.trim() || undefined;
  const runtime = runtimeToken(globals);
  if (runtime === undefined) return mine;
  const product =
    pkg.version === undefined ? productName(pkg.name) : `${productName(pkg.name)}/${pkg.version}`;
  return [mine, product, runtime].filter((part) => part !== undefined).join(' ');
}
