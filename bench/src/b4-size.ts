import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Goal, Section } from './report.js';
import { fixed, times, type RunOptions, type Scenario } from './scenario.js';
import { median } from './stats.js';

const run = promisify(execFile);
const benchRoot = fileURLToPath(new URL('..', import.meta.url));

const REFERENCE = 'openapi-fetch';
const PACKAGES = [
  REFERENCE,
  '@partner-apis/exposure',
  '@partner-apis/riskengineering',
  '@partner-apis/liability',
  '@partner-apis/approvals',
  '@partner-apis/transport-undici',
] as const;

interface Size {
  minified: number;
  gzipped: number;
}

async function bundleSize(specifier: string): Promise<Size | string> {
  try {
    const result = await build({
      stdin: { contents: `export * from '${specifier}';`, resolveDir: benchRoot, loader: 'js' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      minify: true,
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.contents ?? new Uint8Array();
    return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return text.includes('Could not resolve')
      ? `${specifier} is not available in this checkout (not installed or not built)`
      : `bundling ${specifier} failed: ${text.split('\n')[0]}`;
  }
}

/** Milliseconds `await import(specifier)` takes in a fresh node process. */
async function coldImportMs(specifier: string): Promise<number> {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: benchRoot,
    timeout: 15_000,
  });
  return Number(stdout);
}

const kilobytes = (bytes: number) => fixed(bytes / 1024, 1);

async function runSizes(options: RunOptions): Promise<Section> {
  const imports = options.quick ? 3 : 9;
  const sizes = new Map<string, Size>();
  const notes: string[] = [];
  for (const specifier of PACKAGES) {
    const size = await bundleSize(specifier);
    if (typeof size === 'string') notes.push(size);
    else sizes.set(specifier, size);
  }

  // Interleaved, so a slow moment of the machine spreads over every package.
  const importTimes = new Map<string, number[]>([...sizes.keys()].map((name) => [name, []]));
  for (let i = 0; i < imports; i++) {
    for (const specifier of sizes.keys())
      importTimes.get(specifier)?.push(await coldImportMs(specifier));
  }

  const reference = sizes.get(REFERENCE);
  const referenceImport = median(importTimes.get(REFERENCE) ?? []);
  const rows = PACKAGES.map((specifier) => {
    const size = sizes.get(specifier);
    if (size === undefined) return [specifier, 'not available', '', '', '', ''];
    const importMs = median(importTimes.get(specifier) ?? []);
    return [
      specifier,
      kilobytes(size.minified),
      kilobytes(size.gzipped),
      reference ? times(size.gzipped / reference.gzipped) : '—',
      fixed(importMs, 1),
      times(importMs / referenceImport),
    ];
  });
  const goals: Goal[] = [];
  return {
    id: 'B4',
    title: 'Size and cold import',
    method: [
      'Each package entry bundled with its dependencies by esbuild (platform node, ESM, minified; node: built-ins external), then gzip -9.',
      `Cold import is \`await import(pkg)\` timed inside a fresh \`node\` process, median of ${imports}, interleaved.`,
    ].join(' '),
    tables: [
      {
        columns: [
          'package',
          'min kB',
          'min+gzip kB',
          '× openapi-fetch size',
          'cold import ms',
          '× openapi-fetch import',
        ],
        rows,
      },
    ],
    goals,
    notes,
  };
}

export const b4Size: Scenario = { id: 'B4', run: runSizes };
