import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { UsageError } from '../usage-error.js';
import { resolveSettings, secretValues } from './settings.js';

let cwd: string;
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'partner-apis-settings-'));
});

const writeConfig = (content: unknown, name = 'partner-apis.config.json') =>
  writeFile(join(cwd, name), JSON.stringify(content));

const uatConfig = {
  defaultEnvironment: 'uat',
  environments: {
    uat: {
      tokenUrl: 'https://auth.uat.example/login/connect/token',
      liability: { baseUrl: 'https://liability.uat.example/v1/uat', clientId: 'broker-7' },
      approvals: { tier: 'silver' },
    },
    sandbox: {},
  },
  sandbox: { size: 40, seed: 3 },
};

describe('resolveSettings', () => {
  test('with nothing configured, commands use the embedded sandbox', async () => {
    const settings = await resolveSettings({ env: { HOME: '/home/x' }, cwd });
    expect(settings).toMatchObject({
      embeddedSandbox: true,
      environment: undefined,
      configPath: undefined,
      configuredServices: [],
      variables: {},
    });
  });

  test('PARTNER_APIS_* variables configure the services they name', async () => {
    const settings = await resolveSettings({
      env: {
        PARTNER_APIS_LIABILITY_BASE_URL: 'https://l.example/v1/uat',
        PARTNER_APIS_APPROVALS_CLIENT_ID: 'a',
        PARTNER_APIS_TOKEN_URL: 'https://auth.example/login/connect/token',
        PARTNER_APIS_EXPOSURE_CLIENT_SECRET: '',
        OTHER: 'x',
      },
      cwd,
    });
    expect(settings.embeddedSandbox).toBe(false);
    expect(settings.configuredServices).toEqual(['liability', 'approvals']);
    expect(settings.variables).toEqual({
      PARTNER_APIS_LIABILITY_BASE_URL: 'https://l.example/v1/uat',
      PARTNER_APIS_APPROVALS_CLIENT_ID: 'a',
      PARTNER_APIS_TOKEN_URL: 'https://auth.example/login/connect/token',
    });
  });

  test('the config file gives the default environment; variables win over it', async () => {
    await writeConfig(uatConfig);
    const settings = await resolveSettings({
      env: { PARTNER_APIS_LIABILITY_CLIENT_ID: 'from-env' },
      cwd,
    });
    expect(settings.environment).toBe('uat');
    expect(settings.configPath).toBe(join(cwd, 'partner-apis.config.json'));
    expect(settings.variables).toEqual({
      PARTNER_APIS_TOKEN_URL: 'https://auth.uat.example/login/connect/token',
      PARTNER_APIS_LIABILITY_BASE_URL: 'https://liability.uat.example/v1/uat',
      PARTNER_APIS_LIABILITY_CLIENT_ID: 'from-env',
      PARTNER_APIS_APPROVALS_TIER: 'silver',
    });
    expect(settings.sandbox).toEqual({ size: 40, seed: 3 });
  });

  test('--env sandbox ignores service variables, so other credentials are never used by mistake', async () => {
    await writeConfig(uatConfig);
    const settings = await resolveSettings({
      env: { PARTNER_APIS_LIABILITY_CLIENT_SECRET: 'production-secret', PARTNER_APIS_ENV: 'uat' },
      cwd,
      environment: 'sandbox',
    });
    expect(settings).toMatchObject({
      environment: 'sandbox',
      embeddedSandbox: true,
      variables: {},
    });
  });

  test('production and uat must be configured', async () => {
    await expect(resolveSettings({ env: {}, cwd, environment: 'production' })).rejects.toThrow(
      /the production environment has no settings: add environments.production/,
    );
  });

  test('PARTNER_APIS_ENV and PARTNER_APIS_CONFIG pick the environment and the file', async () => {
    await writeConfig(uatConfig, 'team.json');
    const settings = await resolveSettings({
      env: { PARTNER_APIS_ENV: 'uat', PARTNER_APIS_CONFIG: 'team.json' },
      cwd,
    });
    expect(settings.environment).toBe('uat');
    expect(settings.configuredServices).toEqual(['liability', 'approvals']);
    await expect(resolveSettings({ env: { PARTNER_APIS_ENV: 'staging' }, cwd })).rejects.toThrow(
      'PARTNER_APIS_ENV must be one of production, uat, mock, sandbox (got "staging")',
    );
  });

  test('a config file that is named must exist; the default one may be absent', async () => {
    await expect(resolveSettings({ env: {}, cwd, configFile: 'missing.json' })).rejects.toThrow(
      /cannot read the config file .*missing.json: it does not exist/,
    );
  });

  test.each([
    [
      { environments: { uat: { liability: { clientSecrt: 'x' } } } },
      /environments.uat.liability.clientSecrt is not a known setting/,
    ],
    [{ environments: { staging: {} } }, /environments.staging is not a known setting/],
    [
      { defaultEnvironment: 'dev' },
      /defaultEnvironment must be one of production, uat, mock, sandbox/,
    ],
    [
      { environments: { uat: { approvals: { tier: 3 } } } },
      /environments.uat.approvals.tier must be a non-empty string/,
    ],
    [{ sandbox: { size: -1 } }, /sandbox.size must be a whole number/],
    [[], /\(top level\) must be an object/],
  ])('a mistake in the config file names the setting: %j', async (content, message) => {
    await writeConfig(content);
    const failure = resolveSettings({ env: {}, cwd });
    await expect(failure).rejects.toBeInstanceOf(UsageError);
    await expect(failure).rejects.toThrow(message);
  });

  test('a config file that is not JSON is a usage error', async () => {
    await writeFile(join(cwd, 'partner-apis.config.json'), '{ environments: ');
    await expect(resolveSettings({ env: {}, cwd })).rejects.toThrow(/is not valid JSON/);
  });

  test('sandbox size and seed come from variables before the file', async () => {
    await writeConfig({ sandbox: { size: 40 } });
    const settings = await resolveSettings({ env: { PARTNER_APIS_SANDBOX_SIZE: '12' }, cwd });
    expect(settings.sandbox).toEqual({ size: 12, seed: undefined });
    await expect(
      resolveSettings({ env: { PARTNER_APIS_SANDBOX_SEED: 'many' }, cwd }),
    ).rejects.toThrow('PARTNER_APIS_SANDBOX_SEED must be a whole number (got "many")');
  });
});

describe('profiles of the user config file', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'partner-apis-home-'));
  });

  const writeUserConfig = async (content: unknown, base = join(home, '.config')) => {
    await mkdir(join(base, 'partner-apis'), { recursive: true });
    await writeFile(join(base, 'partner-apis', 'config.json'), JSON.stringify(content));
  };

  // The credentials as `partner-apis-sandbox` prints them, pasted into a profile.
  const printedCredentials = {
    exposure: {
      clientId: 'sandbox-exposure',
      clientSecret: 'sx',
      subscriptionKeys: { primary: 'k1', secondary: 'k2' },
    },
    approvals: { clientId: 'sandbox-approvals', clientSecret: 'sa', tier: 'gold' },
  };

  test('--profile picks a profile of ~/.config/partner-apis/config.json; the sandbox credentials paste as they are', async () => {
    await writeUserConfig({
      profiles: {
        local: {
          tokenUrl: 'http://127.0.0.1:4010/auth/login/connect/token',
          exposure: { baseUrl: 'http://127.0.0.1:4010/portal', ...printedCredentials.exposure },
          approvals: {
            baseUrl: 'http://127.0.0.1:4010/approvals/v1',
            ...printedCredentials.approvals,
          },
        },
      },
    });
    const settings = await resolveSettings({ env: { HOME: home }, cwd, profile: 'local' });
    expect(settings).toMatchObject({
      profile: 'local',
      environment: undefined,
      embeddedSandbox: false,
    });
    expect(settings.variables).toEqual({
      PARTNER_APIS_TOKEN_URL: 'http://127.0.0.1:4010/auth/login/connect/token',
      PARTNER_APIS_EXPOSURE_BASE_URL: 'http://127.0.0.1:4010/portal',
      PARTNER_APIS_EXPOSURE_CLIENT_ID: 'sandbox-exposure',
      PARTNER_APIS_EXPOSURE_CLIENT_SECRET: 'sx',
      PARTNER_APIS_EXPOSURE_SUBSCRIPTION_KEY: 'k1',
      PARTNER_APIS_EXPOSURE_SUBSCRIPTION_KEY_SECONDARY: 'k2',
      PARTNER_APIS_APPROVALS_BASE_URL: 'http://127.0.0.1:4010/approvals/v1',
      PARTNER_APIS_APPROVALS_CLIENT_ID: 'sandbox-approvals',
      PARTNER_APIS_APPROVALS_CLIENT_SECRET: 'sa',
      PARTNER_APIS_APPROVALS_TIER: 'gold',
    });
    expect(settings.sources.PARTNER_APIS_EXPOSURE_SUBSCRIPTION_KEY_SECONDARY).toBe(
      `${join(home, '.config', 'partner-apis', 'config.json')}: profiles.local.exposure.subscriptionKeys.secondary`,
    );
  });

  test('XDG_CONFIG_HOME, PARTNER_APIS_PROFILE and defaultProfile', async () => {
    const xdg = join(home, 'xdg');
    await writeUserConfig(
      {
        defaultProfile: 'a',
        profiles: { a: { liability: { clientId: 'la' } }, b: { liability: { clientId: 'lb' } } },
        sandbox: { size: 9 },
      },
      xdg,
    );
    const env = { HOME: home, XDG_CONFIG_HOME: xdg };
    expect((await resolveSettings({ env, cwd })).variables).toEqual({
      PARTNER_APIS_LIABILITY_CLIENT_ID: 'la',
    });
    expect((await resolveSettings({ env, cwd })).sandbox.size).toBe(9);
    const b = await resolveSettings({ env: { ...env, PARTNER_APIS_PROFILE: 'b' }, cwd });
    expect(b.variables).toEqual({ PARTNER_APIS_LIABILITY_CLIENT_ID: 'lb' });
    // The project's file chooses first when it names a default environment.
    await writeConfig(uatConfig);
    expect((await resolveSettings({ env, cwd })).environment).toBe('uat');
  });

  test('variables win over a profile, and name themselves as the source', async () => {
    await writeUserConfig({
      profiles: { a: { liability: { clientId: 'la', baseUrl: 'https://l' } } },
    });
    const settings = await resolveSettings({
      env: { HOME: home, PARTNER_APIS_LIABILITY_CLIENT_ID: 'from-env' },
      cwd,
      profile: 'a',
    });
    expect(settings.variables.PARTNER_APIS_LIABILITY_CLIENT_ID).toBe('from-env');
    expect(settings.sources.PARTNER_APIS_LIABILITY_CLIENT_ID).toBe(
      'PARTNER_APIS_LIABILITY_CLIENT_ID',
    );
  });

  test('an unknown profile, --profile with --env, and a key given twice are usage errors', async () => {
    await writeUserConfig({ profiles: { a: {}, b: {} } });
    await expect(resolveSettings({ env: { HOME: home }, cwd, profile: 'c' })).rejects.toThrow(
      /^there is no profile c in .*config\.json; the profiles are a, b$/,
    );
    await expect(
      resolveSettings({ env: { HOME: home }, cwd, profile: 'a', environment: 'uat' }),
    ).rejects.toThrow('--profile and --env both choose where commands go: give one of them');
    await writeUserConfig({
      profiles: { a: { exposure: { subscriptionKey: 'x', subscriptionKeys: { primary: 'y' } } } },
    });
    await expect(resolveSettings({ env: { HOME: home }, cwd, profile: 'a' })).rejects.toThrow(
      /profiles\.a\.exposure\.subscriptionKeys\.primary repeats profiles\.a\.exposure\.subscriptionKey; give one of them/,
    );
  });
});

describe('the liability major in settings', () => {
  test('PARTNER_APIS_LIABILITY_MAJOR alone chooses a client, not a place: commands stay on the sandbox', async () => {
    const settings = await resolveSettings({
      env: { HOME: '/home/x', PARTNER_APIS_LIABILITY_MAJOR: '1' },
      cwd,
    });
    expect(settings).toMatchObject({ embeddedSandbox: true, configuredServices: [] });
    expect(settings.variables).toEqual({ PARTNER_APIS_LIABILITY_MAJOR: '1' });
  });

  test('liability.major and liability.baseUrls of a config file stand for their variables', async () => {
    await writeConfig({
      environments: {
        uat: {
          liability: {
            baseUrl: 'https://l.example/gateway',
            baseUrls: { 2: 'https://l2.example/v2/uat' },
            major: 2,
          },
        },
      },
    });
    const settings = await resolveSettings({ env: {}, cwd, environment: 'uat' });
    expect(settings.variables).toEqual({
      PARTNER_APIS_LIABILITY_BASE_URL: 'https://l.example/gateway',
      PARTNER_APIS_LIABILITY_V2_BASE_URL: 'https://l2.example/v2/uat',
      PARTNER_APIS_LIABILITY_MAJOR: '2',
    });
    expect(settings.sources.PARTNER_APIS_LIABILITY_MAJOR).toMatch(
      /partner-apis\.config\.json: environments\.uat\.liability\.major$/,
    );
    expect(settings.sources.PARTNER_APIS_LIABILITY_V2_BASE_URL).toMatch(
      /: environments\.uat\.liability\.baseUrls\.2$/,
    );
  });

  test.each([
    [{ major: 0 }, 'environments.uat.liability.major must be a major version'],
    [{ major: '2' }, 'environments.uat.liability.major must be a major version'],
    [{ baseUrls: { v2: 'https://x' } }, 'environments.uat.liability.baseUrls.v2 is not a major'],
    [{ baseUrls: { 2: '' } }, 'environments.uat.liability.baseUrls.2 must be a non-empty string'],
    [{ baseUrls: null }, 'environments.uat.liability.baseUrls must be an object'],
    [{ major: 1, baseUrl: 'https://x/v1' }, undefined],
  ])('liability %j', async (liability, message) => {
    await writeConfig({ environments: { uat: { liability } } });
    const settings = resolveSettings({ env: {}, cwd, environment: 'uat' });
    if (message === undefined) await expect(settings).resolves.toBeDefined();
    else await expect(settings).rejects.toThrow(message);
  });

  test('major and baseUrls are settings of liability only', async () => {
    await writeConfig({ environments: { uat: { approvals: { major: 1 } } } });
    await expect(resolveSettings({ env: {}, cwd, environment: 'uat' })).rejects.toThrow(
      'environments.uat.approvals.major is not a known setting',
    );
  });
});

test('secretValues lists client secrets and subscription keys, nothing else', () => {
  expect(
    secretValues({
      PARTNER_APIS_EXPOSURE_CLIENT_ID: 'id',
      PARTNER_APIS_EXPOSURE_CLIENT_SECRET: 's1',
      PARTNER_APIS_EXPOSURE_SUBSCRIPTION_KEY: 'k1',
      PARTNER_APIS_EXPOSURE_SUBSCRIPTION_KEY_SECONDARY: 'k2',
      PARTNER_APIS_EXPOSURE_SECRET_CREATED_AT: '2026-01-01',
    }),
  ).toEqual(['s1', 'k1', 'k2']);
});
