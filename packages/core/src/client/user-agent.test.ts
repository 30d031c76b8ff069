import { describe, expect, it } from 'vitest';
import { runtimeToken, userAgent } from './user-agent.js';

const APPROVALS = { name: '@partner-apis/approvals', version: '1.2.3' };
const NODE = { process: { versions: { node: '20.19.4' } } };
const BROWSER = { navigator: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' } };

describe('userAgent', () => {
  it('names the package, its version and the runtime', () => {
    expect(userAgent(APPROVALS, undefined, NODE)).toBe('partner-apis-approvals/1.2.3 node/20.19');
  });

  it("appends them to the caller's own value", () => {
    expect(userAgent(APPROVALS, 'acme-sync/4.0 (ops@acme.example)', NODE)).toBe(
      'acme-sync/4.0 (ops@acme.example) partner-apis-approvals/1.2.3 node/20.19',
    );
  });

  it('leaves out the version where no build set it (tests run from source)', () => {
    expect(userAgent({ name: '@partner-apis/liability' }, undefined, NODE)).toBe(
      'partner-apis-liability node/20.19',
    );
  });

  it("in a browser, gives only the caller's own value, or none", () => {
    expect(userAgent(APPROVALS, undefined, BROWSER)).toBeUndefined();
    expect(userAgent(APPROVALS, '  ', BROWSER)).toBeUndefined();
    expect(userAgent(APPROVALS, 'acme-portal/2.1', BROWSER)).toBe('acme-portal/2.1');
  });

  it('finds the runtime it runs on by default', () => {
    const [major, minor] = process.versions.node.split('.');
    expect(userAgent(APPROVALS)).toBe(`partner-apis-approvals/1.2.3 node/${major}.${minor}`);
  });
});

describe('runtimeToken', () => {
  it.each([
    ['Node', { process: { versions: { node: '20.19.4' } } }, 'node/20.19'],
    ['Bun', { Bun: { version: '1.4.5' }, process: { versions: { node: '24.3.0' } } }, 'bun/1.4'],
    [
      'Deno',
      { Deno: { version: { deno: '2.9.6' } }, process: { versions: { node: '22.0.0' } } },
      'deno/2.9',
    ],
    ['workerd', { navigator: { userAgent: 'Cloudflare-Workers' } }, 'workerd'],
    ['a browser', { navigator: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' } }, undefined],
    ['a runtime without process', {}, undefined],
    ['a version that is not one', { process: { versions: { node: 42 } } }, undefined],
  ])('%s', (_, globals, expected) => {
    expect(runtimeToken(globals)).toBe(expected);
  });
});
