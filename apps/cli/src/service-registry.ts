import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { OperationDescription } from '@partner-apis/exposure/internal';
import { UsageError } from './usage-error.js';

/** One service of the command line, as `services.json` lists it. */
export interface ServiceEntry {
  /** Its command, `partner-apis <name> …`, and its variables, `PARTNER_APIS_<NAME>_*`. */
  readonly name: string;
  /** The package whose `/internal` entry describes and creates its client. */
  readonly package: string;
  readonly description: string;
}

/** What the `/internal` entry of a listed package exports. */
export interface ServiceModule {
  /** The generated operation table. */
  readonly operations: Readonly<Record<string, OperationDescription>>;
  /** Its client from `PARTNER_APIS_<NAME>_*` variables, with the command line's options. */
  readonly clientFromEnv?: (env: Record<string, string | undefined>, overrides?: object) => unknown;
}

/** The list shipped beside `src/` and `dist/`, which `pnpm new-service` extends. */
export const SERVICES_FILE = fileURLToPath(new URL('../services.json', import.meta.url));

/** The list of this run: `SERVICES_FILE`, or the one a test gives the command line. */
let servicesFile = SERVICES_FILE;

/**
 * Makes `file` the list of this run, read where a setting names a service (the config file).
 */
export function useServiceList(file: string): void {
  servicesFile = file;
}

/**
 * The services of `file`, checked: a name is a command word, a package a package name.
 */
export function readServiceList(file: string = servicesFile): ServiceEntry[] {
  let list: unknown;
  try {
    list = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`cannot read the list of services ${file}: ${(error as Error).message}`);
  }
  const valid = (entry: Partial<ServiceEntry>) =>
    /^[a-z][a-z0-9]*$/.test(entry.name ?? '') &&
    /^(@[a-z0-9-]+\/)?[a-z0-9.-]+$/.test(entry.package ?? '') &&
    typeof entry.description === 'string';
  if (!Array.isArray(list) || !list.every(valid)) {
    throw new UsageError(
      `${file} must be a list of { "name": "museum", "package": "@partner-apis/museum", "description": "…" }`,
    );
  }
  return list as ServiceEntry[];
}

/** `museum` → `PARTNER_APIS_MUSEUM_`, the prefix of its variables. */
export function variablePrefix(name: string): string {
  return `PARTNER_APIS_${name.toUpperCase()}_`;
}

/**
 * Loads the `/internal` entry of a listed package, resolved from the list's own folder, so a
 * service is loaded only by the commands that use it.
 */
export async function loadService(
  entry: ServiceEntry,
  file: string = servicesFile,
): Promise<ServiceModule> {
  const specifier = `${entry.package}/internal`;
  let module: Partial<ServiceModule>;
  try {
    module = (await import(pathToFileURL(createRequire(file).resolve(specifier)).href)) as object;
  } catch (error) {
    throw new UsageError(
      `cannot load ${specifier} (listed in ${file}): ${(error as Error).message}`,
    );
  }
  if (typeof module.operations !== 'object' || module.operations === null) {
    throw new UsageError(`${specifier} exports no operations table`);
  }
  return module as ServiceModule;
}
