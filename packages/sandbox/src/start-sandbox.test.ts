import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getApprovals, portalGet, LOCATIONS_PATH } from './sandbox.fixture.js';
import { SandboxConfigError, startSandbox, type SandboxOptions } from './index.js';

afterEach(() => vi.restoreAllMocks());

describe('startSandbox', () => {
  it('listens on 127.0.0.1 at a free port and gives every base URL', async () => {
    const sb = await startSandbox();
    try {
      const origin = `http://127.0.0.1:${sb.port}`;
      expect(sb.port).toBeGreaterThan(0);
      expect(sb.urls).toEqual({
        origin,
        tokenUrl: `${origin}/auth/login/connect/token`,
        exposure: `${origin}/portal`,
        riskEngineering: `${origin}/portal`,
        liability: `${origin}/liability/v1/sandbox`,
        liabilityMajors: { 1: `${origin}/liability/v1/sandbox` },
        approvals: `${origin}/approvals/v1`,
        services: {},
        admin: `${origin}/__sandbox`,
      });
    } finally {
      await sb.close();
    }
  });

  it('cannot be reached through any interface but loopback', async () => {
    const sb = await startSandbox();
    try {
      const outside = Object.values(networkInterfaces())
        .flat()
        .filter(
          (address) => address !== undefined && !address.internal && address.family === 'IPv4',
        );
      for (const address of outside) {
        await expect(
          fetch(`http://${address!.address}:${sb.port}/approvals/v1/approvals`),
        ).rejects.toThrow();
      }
      expect((await getApprovals(sb, '100234')).status).toBe(200);
    } finally {
      await sb.close();
    }
  });

  it('listens on the port it is given', async () => {
    const probe = await startSandbox();
    const { port } = probe;
    await probe.close();
    const sb = await startSandbox({ port });
    try {
      expect(sb.urls.origin).toBe(`http://127.0.0.1:${port}`);
      expect((await getApprovals(sb, '100234')).status).toBe(200);
    } finally {
      await sb.close();
    }
  });

  it('generates new credentials on every start', async () => {
    const a = await startSandbox();
    const b = await startSandbox();
    try {
      expect(a.credentials.exposure.clientSecret).not.toBe(b.credentials.exposure.clientSecret);
      expect(a.credentials.exposure.subscriptionKeys.primary).toMatch(/^[0-9a-f]{32}$/);
      expect(a.credentials.approvals.tier).toBe('gold');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('closes open keep-alive connections and can be closed twice', async () => {
    const sb = await startSandbox();
    expect((await getApprovals(sb, '100234')).status).toBe(200);
    await sb.close();
    await sb.close();
    await expect(getApprovals(sb, '100234')).rejects.toThrow();
  });

  it('writes nothing to the console, whatever it is sent', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
      vi.spyOn(console, m),
    );
    const sb = await startSandbox();
    try {
      await portalGet(sb, 'exposure', LOCATIONS_PATH, { authorization: 'Bearer wrong' });
      await getApprovals(sb, '100234', { client_secret: 'wrong' });
      await fetch(`${sb.urls.liability}/quotes`, { method: 'POST', body: '{' });
    } finally {
      await sb.close();
    }
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it.each<[string, SandboxOptions, RegExp]>([
    ['a negative port', { port: -1 }, /^port must be an integer from 0 to 65535$/],
    ['a fractional size', { sizes: { gradings: 1.5 } }, /^sizes\.gradings must be an integer/],
    ['a zero token lifetime', { tokenLifetimeSeconds: 0 }, /^tokenLifetimeSeconds must be/],
    [
      'an unknown tier',
      { credentials: { approvals: { tier: 'platinum' as never } } },
      /credentials\.approvals\.tier/,
    ],
    [
      'an empty secret',
      { credentials: { liability: { clientSecret: '' } } },
      /credentials\.liability\.clientSecret/,
    ],
    ['a bad fault plan', { faults: { '*': { latencyMs: -5 } } }, /faults\["\*"\]\.latencyMs/],
    ['an empty host', { host: '' }, /^host must be/],
  ])('refuses %s, naming the option', async (_, options, message) => {
    const start = startSandbox(options);
    await expect(start).rejects.toThrow(SandboxConfigError);
    await expect(start).rejects.toThrow(message);
  });
});
