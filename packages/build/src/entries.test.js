// @ts-check
import { describe, expect, it } from 'vitest';
import { buildPlan, importRule } from './entries.js';

describe('buildPlan', () => {
  it('builds every subpath and condition of exports, and the bin, from src/ by the same path', () => {
    const plan = buildPlan({
      exports: {
        '.': {
          types: './dist/index.d.ts',
          node: './dist/index.node.js',
          default: './dist/index.js',
        },
        './statement-of-values': {
          types: './dist/statement-of-values.d.ts',
          default: './dist/statement-of-values.js',
        },
        './package.json': './package.json',
      },
      bin: { tool: './dist/cli.js' },
    });
    expect(plan.scripts).toEqual([
      { out: 'index.node', source: 'src/index.node.ts' },
      { out: 'index', source: 'src/index.ts' },
      { out: 'statement-of-values', source: 'src/statement-of-values.ts' },
      { out: 'cli', source: 'src/cli.ts' },
    ]);
    expect(plan.declarations).toEqual([
      { out: 'index', source: 'src/index.ts' },
      { out: 'statement-of-values', source: 'src/statement-of-values.ts' },
    ]);
  });

  it('names the field that points outside dist/', () => {
    expect(() => buildPlan({ exports: { '.': { default: './src/index.ts' } } })).toThrow(
      'exports["."]["default"] points at ./src/index.ts',
    );
  });

  it('refuses a manifest that names no script', () => {
    expect(() => buildPlan({ exports: { './package.json': './package.json' } })).toThrow(
      'names no ./dist/*.js',
    );
  });
});

describe('importRule', () => {
  const rule = importRule({
    name: '@partner-apis/exposure',
    dependencies: { '@partner-apis/core': 'workspace:^', 'openapi-fetch': '^0.17.0' },
    peerDependencies: { undici: '^7' },
  });

  it('keeps dependencies, their subpaths, built-ins and the package itself as imports', () => {
    for (const specifier of [
      '@partner-apis/core',
      'openapi-fetch',
      'undici',
      'undici/types',
      'node:crypto',
      'fs/promises',
      '@partner-apis/exposure/statement-of-values',
    ]) {
      expect(rule(specifier), specifier).toBe('external');
    }
  });

  it('refuses a package the manifest does not declare', () => {
    expect(rule('@partner-apis/auth')).toBe('undeclared');
    expect(rule('openapi-fetch-extra')).toBe('undeclared');
  });
});
