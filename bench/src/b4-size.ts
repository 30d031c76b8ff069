import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import {
  B4_IMPORTED,
  type B4Imported,
  type B4ImportInput,
  type B4ImportResult,
} from './b4-import.js';
import { runTask, startService } from './processes.js';
import type { SandboxHostInfo } from './sandbox-host.js';
import type { Goal, Section } from './report.js';
import { fixed, times, type RunOptions, type Scenario } from './scenario.js';
import { median } from './stats.js';

const benchRoot = fileURLToPath(new URL('..', import.meta.url));

const REFERENCE = 'openapi-fetch';
/** Measured for size; the subpath entry only once the package has it. */
const SIZED = [...B4_IMPORTED, '@partner-apis/exposure/statement-of-values'] as const;
const SERVICES = [
  '@partner-apis/exposure',
  '@partner-apis/riskengineering',
  '@partner-apis/liability',
  '@partner-apis/approvals',
] as const;
/** P3: min+gzip kB of each service package with its dependencies. */
const SIZE_TARGETS_KB: Record<(typeof SERVICES)[number], number> = {
  '@partner-apis/exposure': 24,
  '@partner-apis/riskengineering': 24,
  '@partner-apis/liability': 20,
  '@partner-apis/approvals': 20,
};
const ALL_SERVICES = 'the four service packages together';
const NODE_ALONE = '`node -e 0`';
/**
 * What the fresh process of each cold import imports: every service package at once, as a
 * program that uses them all does (one core serves them), the reference, or nothing.
 */
const COLD_IMPORTS: readonly (readonly [string, readonly string[]])[] = [
  [ALL_SERVICES, SERVICES],
  [REFERENCE, [REFERENCE]],
  [NODE_ALONE, []],
];
/** P2: cold import, and import + first request, over openapi-fetch's in the same run. */
const IMPORT_TARGET = 2.0;
const FIRST_REQUEST_TARGET = 1.25;
/**
 * `node -e 0` takes about 40 ms on the bench machine; beyond this it is in a slow phase, when a
 * cold import, a difference of tens of milliseconds, moves by more than its goal's margin.
 */
const SLOW_PHASE_MS = 100;

/**
 * The optional peer dependencies of the workspace's packages (`@opentelemetry/api`): a user
 * who wants them installs them, and one who does not has none in the bundle.
 */
function optionalPeers(): string[] {
  const packages = fileURLToPath(new URL('../../packages/', import.meta.url));
  return readdirSync(packages).flatMap((dir) => {
    try {
      const manifest = JSON.parse(readFileSync(`${packages}${dir}/package.json`, 'utf8')) as {
        peerDependenciesMeta?: Record<string, { optional?: boolean }>;
      };
      return Object.entries(manifest.peerDependenciesMeta ?? {})
        .filter(([, meta]) => meta.optional === true)
        .map(([name]) => name);
    } catch {
      return [];
    }
  });
}

interface Size {
  minified: number;
  gzipped: number;
}

async function bundleSize(specifier: string, external: string[]): Promise<Size | string> {
  try {
    const result = await build({
      stdin: { contents: `export * from '${specifier}';`, resolveDir: benchRoot, loader: 'js' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      minify: true,
      external,
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

const run = promisify(execFile);

/**
 * Wall milliseconds of fresh `node` processes, interleaved in rotating order over `rounds`
 * rounds, by the name of their cold import: each process only imports its packages, as the
 * first lines of a program do; `node -e 0` is the start and exit every process pays.
 */
async function freshProcessMs(rounds: number): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>(COLD_IMPORTS.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const start = round % COLD_IMPORTS.length;
    for (const [name, specifiers] of [
      ...COLD_IMPORTS.slice(start),
      ...COLD_IMPORTS.slice(0, start),
    ]) {
      const program = specifiers.map((s) => `import ${JSON.stringify(s)};`).join('\n');
      const args = program === '' ? ['-e', '0'] : ['--input-type=module', '-e', program];
      const started = performance.now();
      await run(process.execPath, args, { cwd: benchRoot, timeout: 20_000 });
      samples.get(name)?.push(performance.now() - started);
    }
  }
  return samples;
}

const kilobytes = (bytes: number) => fixed(bytes / 1024, 1);

function atMost(name: string, value: number, target: number, format: (v: number) => string): Goal {
  return {
    name,
    target: `≤ ${format(target)}`,
    measured: format(value),
    met: Number.isFinite(value) ? value <= target : undefined,
  };
}

async function runSizes(options: RunOptions): Promise<Section> {
  const rounds = options.quick ? 3 : 9;
  const sizes = new Map<string, Size>();
  const notes: string[] = [];
  const external = optionalPeers();
  for (const specifier of SIZED) {
    const size = await bundleSize(specifier, external);
    if (typeof size === 'string') notes.push(size);
    else sizes.set(specifier, size);
  }

  const processMs = await freshProcessMs(options.quick ? 5 : 41);
  const baseMs = processMs.get(NODE_ALONE) ?? [];
  // Same-round differences: this machine's speed drifts between rounds more than within one.
  const coldImportMs = (name: string) =>
    median((processMs.get(name) ?? []).map((ms, round) => ms - (baseMs[round] ?? ms)));
  const sandbox = await startService<SandboxHostInfo>('sandbox-host', {}, { timeoutMs: 20_000 });
  const importMs = new Map<B4Imported, number[]>(B4_IMPORTED.map((name) => [name, []]));
  const firstRequestMs = new Map<B4Imported, number[]>(B4_IMPORTED.map((name) => [name, []]));
  const importCpuMs = new Map<B4Imported, number[]>(B4_IMPORTED.map((name) => [name, []]));
  const firstRequestCpuMs = new Map<B4Imported, number[]>(B4_IMPORTED.map((name) => [name, []]));
  const unavailable = new Map<B4Imported, string>();
  try {
    const info = sandbox.info;
    if (info.unavailable !== undefined) throw new Error(info.unavailable);
    // Round 0 is not recorded: it warms the sandbox, whose first answer on each route is slow.
    // The rounds after it are interleaved in rotating order, so a slow moment of the machine
    // spreads over every package.
    for (let round = 0; round <= rounds; round++) {
      const order = B4_IMPORTED.map(
        (_, i) => B4_IMPORTED[(i + round) % B4_IMPORTED.length] as B4Imported,
      );
      for (const specifier of order) {
        if (unavailable.has(specifier)) continue;
        const input: B4ImportInput = { specifier, sandbox: info };
        const result = await runTask<B4ImportResult>('b4-import', input, { timeoutMs: 20_000 });
        if ('unavailable' in result) {
          unavailable.set(specifier, result.unavailable);
          continue;
        }
        if (round === 0) continue;
        importMs.get(specifier)?.push(result.importMs);
        firstRequestMs.get(specifier)?.push(result.firstRequestMs);
        importCpuMs.get(specifier)?.push(result.importCpuMs);
        firstRequestCpuMs.get(specifier)?.push(result.firstRequestCpuMs);
      }
    }
  } finally {
    await sandbox.stop();
  }

  // Each ratio is the median of same-round ratios, as in B1.
  const ratio = (samples: Map<B4Imported, number[]>, specifier: B4Imported) => {
    const own = samples.get(specifier) ?? [];
    const reference = samples.get(REFERENCE) ?? [];
    return median(own.flatMap((value, i) => (reference[i] ? [value / reference[i]] : [])));
  };
  const referenceSize = sizes.get(REFERENCE);
  const rows = SIZED.map((specifier) => {
    const size = sizes.get(specifier);
    const imported = (B4_IMPORTED as readonly string[]).includes(specifier)
      ? (specifier as B4Imported)
      : undefined;
    const timing =
      imported === undefined || unavailable.has(imported)
        ? ['', '', '', '']
        : [
            fixed(median(importMs.get(imported) ?? []), 1),
            times(ratio(importMs, imported)),
            fixed(median(firstRequestMs.get(imported) ?? []), 1),
            times(ratio(firstRequestMs, imported)),
          ];
    if (size === undefined) return [specifier, 'not available', '', '', ...timing];
    return [
      specifier,
      kilobytes(size.minified),
      kilobytes(size.gzipped),
      referenceSize ? times(size.gzipped / referenceSize.gzipped) : '—',
      ...timing,
    ];
  });

  const goals: Goal[] = [
    atMost(
      `P2 cold import of ${ALL_SERVICES} vs openapi-fetch`,
      coldImportMs(ALL_SERVICES) / coldImportMs(REFERENCE),
      IMPORT_TARGET,
      times,
    ),
    ...SERVICES.flatMap((specifier) => [
      atMost(
        `P2 import + first request of ${specifier} vs openapi-fetch`,
        ratio(firstRequestMs, specifier),
        FIRST_REQUEST_TARGET,
        times,
      ),
      atMost(
        `P3 min+gzip of ${specifier} with its dependencies`,
        (sizes.get(specifier)?.gzipped ?? Number.NaN) / 1024,
        SIZE_TARGETS_KB[specifier],
        (kB) => `${fixed(kB, 1)} kB`,
      ),
    ]),
  ];
  return {
    id: 'B4',
    title: 'Size and cold import',
    method: [
      "Each package entry bundled with its dependencies by esbuild (platform node, ESM, minified; node: built-ins and optional peer dependencies external), then gzip -9: what the package adds to a user's bundle.",
      `Cold import is the wall time of a fresh \`node\` process whose program only imports the four service packages (one core serves them all), or openapi-fetch, minus that of \`node -e 0\` in the same round (medians over ${options.quick ? 5 : 41} interleaved rounds): what a program that uses them pays to start.`,
      `Import in process is the time from before \`await import(pkg)\` to after it, inside a fresh \`node\` process whose ESM loader is already running;`,
      'in the same process the client is then created and makes its first request against the sandbox (in its own process), parsed:',
      "a page of one record (the portal clients fetch their token first), a quote search, or one employee's approvals (openapi-fetch and the undici transport make that same request).",
      `Those times are medians of ${rounds} processes per package, interleaved; their ratios are medians of same-round ratios to openapi-fetch.`,
      'The notes give the same ratios by the CPU time of the process (process.cpuUsage), which suffers less when other work shares the machine.',
    ].join(' '),
    tables: [
      {
        columns: [
          'package',
          'min kB',
          'min+gzip kB',
          '× openapi-fetch size',
          'import in process ms',
          '× openapi-fetch',
          'import + first request ms',
          '× openapi-fetch',
        ],
        rows,
      },
      {
        columns: ['cold import', 'ms', '× openapi-fetch'],
        rows: [ALL_SERVICES, REFERENCE].map((name) => [
          name,
          fixed(coldImportMs(name), 1),
          times(coldImportMs(name) / coldImportMs(REFERENCE)),
        ]),
      },
    ],
    goals,
    notes: [
      `\`node -e 0\`: ${fixed(median(baseMs), 1)} ms${median(baseMs) > SLOW_PHASE_MS ? ': the machine is in a slow phase, and the cold import ratios do not reproduce' : ''}.`,
      ...SERVICES.map(
        (specifier) =>
          `by CPU time, ${specifier}: import in process ${times(ratio(importCpuMs, specifier))}, import + first request ${times(ratio(firstRequestCpuMs, specifier))} openapi-fetch's`,
      ),
      ...notes,
      ...[...unavailable.values()],
    ],
  };
}

export const b4Size: Scenario = { id: 'B4', run: runSizes };
