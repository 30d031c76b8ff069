// @ts-check
/**
 * Creates the package of a new service from its spec alone: `packages/<name>` with its client
 * (generated resources over core), its sandbox routes (a document job of the sandbox), its
 * commands and MCP tools (an entry of the command line's service list). The only hand-written
 * part is `src/client.ts`'s choice of credentials, written here from the spec's first security
 * requirement and the maintainer's to change.
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { describeSpec } from '@partner-apis/spec-model';
import { bundled } from './codegen.js';

/**
 * The credentials a client of the spec takes, and how `src/client.ts` applies them, by the
 * kind of its first security requirement. A spec that asks for none gets none.
 * @param {import('@partner-apis/spec-model').SpecModel} spec
 */
function credentialsOf(spec) {
  const first = spec.operations.find((o) => o.security.requirements.length > 0);
  const schemes = (first?.security.requirements[0] ?? []).map((n) => spec.securitySchemes[n]);
  const keys = schemes.filter((s) => s?.type === 'apiKey');
  if (keys.length > 0) {
    const placed = keys.map((k) => `{ ...${JSON.stringify(k)}, value: credentials.apiKey }`);
    return {
      type: '{ apiKey: string }',
      auth: `apiKeyAuth([${placed.join(', ')}])`,
      imports: 'apiKeyAuth',
      env: ", 'apiKey'",
    };
  }
  if (schemes.some((s) => s?.type === 'http' && s.scheme === 'bearer')) {
    return {
      type: '{ token: string }',
      auth: 'bearerAuth(credentials.token)',
      imports: 'bearerAuth',
      env: ", 'token'",
    };
  }
  if (schemes.length > 0 && !schemes.some((s) => s?.type === 'http' && s.scheme === 'basic')) {
    throw new Error(
      `the spec asks for ${schemes.map((s) => s?.type).join(' and ')}: write src/client.ts's credentials by hand from an existing service`,
    );
  }
  return {
    type: 'ClientCredentials',
    auth: 'basicAuth(credentials)',
    imports: 'basicAuth, type ClientCredentials',
    env: '',
  };
}

/**
 * The files of the new package, by path relative to it.
 * @param {string} name
 * @param {string} specPath relative to the package
 * @param {ReturnType<typeof credentialsOf>} credentials
 * @param {string} title
 */
function packageFiles(name, specPath, credentials, title) {
  const pascal = name.charAt(0).toUpperCase() + name.slice(1);
  const npm = `@partner-apis/${name}`;
  const manifest = {
    name: npm,
    version: '0.0.0',
    description: `Typed client for ${title}.`,
    license: 'MIT',
    type: 'module',
    sideEffects: false,
    main: './dist/index.js',
    types: './dist/index.d.ts',
    exports: {
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './internal': { types: './dist/internal.d.ts', default: './dist/internal.js' },
      './package.json': './package.json',
    },
    files: ['dist', '!dist/**/*.test.*', 'CHANGELOG.md'],
    engines: { node: '>=20.19' },
    repository: {
      type: 'git',
      url: 'git+https://github.com/partner-apis/partner-apis.git',
      directory: `packages/${name}`,
    },
    publishConfig: { access: 'public' },
    scripts: {
      generate: 'partner-apis-codegen',
      'check:generated': 'partner-apis-codegen --check',
      build: 'partner-apis-build',
      typecheck: 'tsc --noEmit',
      lint: 'eslint .',
      test: 'vitest run',
    },
    dependencies: {
      '@partner-apis/auth': 'workspace:^',
      '@partner-apis/core': 'workspace:^',
      '@partner-apis/errors': 'workspace:^',
      'openapi-fetch': 'catalog:',
    },
    devDependencies: {
      '@partner-apis/build': 'workspace:*',
      '@partner-apis/codegen': 'workspace:*',
      '@partner-apis/sandbox': 'workspace:^',
      '@types/node': 'catalog:',
      typescript: 'catalog:',
      vitest: 'catalog:',
    },
  };
  const generated = (/** @type {string} */ file) => `src/generated/${file}`;
  return {
    'package.json': `${JSON.stringify(manifest, null, 2)}\n`,
    'codegen.json': `${JSON.stringify({ jobs: [{ spec: specPath, types: generated('openapi.ts'), operations: generated('operations.ts'), resources: generated('resources.ts') }] }, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify({ extends: '../../tsconfig.base.json', compilerOptions: { noEmit: true }, include: ['src'] }, null, 2)}\n`,
    'tsconfig.build.json': `${JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: false, rootDir: 'src', outDir: 'dist' }, exclude: ['src/**/*.test.ts'] }, null, 2)}\n`,
    'typedoc.json': `${JSON.stringify({ $schema: 'https://typedoc.org/schema.json', intentionallyNotExported: [] }, null, 2)}\n`,
    'vitest.config.ts': `import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({ test: { testTimeout: 30_000 } });\n`,
    'src/client.ts': `import { ${credentials.imports} } from '@partner-apis/auth';
import { createServiceClient, type ClientOptions, type ServiceClient } from '@partner-apis/core';
import type { paths } from './generated/openapi.js';
import { service } from './generated/operations.js';
import { createResources, type Resources } from './generated/resources.js';

/** Options of \`create${pascal}Client\`; every pipeline option of \`ClientOptions\` applies too. */
export interface ${pascal}ClientOptions extends ClientOptions {
  /** The service's address; \`https:\` only, except on loopback hosts. */
  baseUrl: string;
  /** What the spec's security asks for; how they are sent is this file's one choice. */
  credentials: ${credentials.type};
}

/** A client of ${title}: one member per resource of the spec, and \`raw\`. */
export interface ${pascal}Client extends Resources {
  /** The openapi-fetch client over the same pipeline, for anything else in the spec. */
  readonly raw: ServiceClient<paths, typeof service>['raw'];
}

/**
 * Creates a client of ${title}. Every option is checked here; a bad one throws a
 * \`ConfigurationError\` naming it.
 */
export function create${pascal}Client(options: ${pascal}ClientOptions): ${pascal}Client {
  const client = createServiceClient<paths, typeof service>(options, {
    service,
    auth: (given) => {
      const credentials = given as unknown as ${pascal}ClientOptions['credentials'];
      return ${credentials.auth};
    },
    package: { name: '${npm}', version: undefined },
  });
  return { ...createResources(client), raw: client.raw };
}
`,
    'src/env.ts': `import { readServiceEnv, type Env } from '@partner-apis/core';
import type { ${pascal}ClientOptions } from './client.js';

/** The options of \`create${pascal}Client\` from the \`PARTNER_APIS_${name.toUpperCase()}_…\` variables. */
export function fromEnv(env: Env = globalThis.process?.env ?? {}): ${pascal}ClientOptions {
  return readServiceEnv('${name.toUpperCase()}', env${credentials.env});
}
`,
    'src/index.ts': `export { create${pascal}Client } from './client.js';
export type { ${pascal}Client, ${pascal}ClientOptions } from './client.js';
export { fromEnv } from './env.js';
export type { ApiPromise, CallOptions, ClientOptions, WithResponse } from '@partner-apis/core';
export type { components, operations, paths } from './generated/openapi.js';
export type * from './generated/resources.js';
export * from '@partner-apis/errors/classes';
`,
    'src/internal.ts': `import type { Env } from '@partner-apis/core';
import { create${pascal}Client, type ${pascal}Client, type ${pascal}ClientOptions } from './client.js';
import { fromEnv } from './env.js';

/** What tools that follow the spec read: the command line, the MCP server. */
export { operations, service } from './generated/operations.js';

/** A client from the \`PARTNER_APIS_${name.toUpperCase()}_…\` variables, with \`overrides\` over them. */
export function clientFromEnv(env: Env, overrides: Partial<${pascal}ClientOptions> = {}): ${pascal}Client {
  return create${pascal}Client({ ...fromEnv(env), ...overrides });
}
`,
    'src/client.test.ts': `import type { OperationDescription } from '@partner-apis/core';
import { startSandbox } from '@partner-apis/sandbox';
import { describe, expect, it } from 'vitest';
import { clientFromEnv, operations } from './internal.js';

type Method = () => Promise<unknown>;

describe('${npm}', () => {
  it('reads through every method that needs no argument, against the sandbox', async () => {
    const sandbox = await startSandbox();
    try {
      const client = clientFromEnv(sandbox.variables) as unknown as Record<string, Record<string, Method>>;
      for (const operation of Object.values(operations) as readonly OperationDescription[]) {
        const needs = operation.arguments.some((a) => a.in === 'path' || a.required);
        if (operation.write === true || needs) continue;
        const resource = client[operation.resource]!;
        await (operation.paging === undefined ? resource[operation.verb]! : resource.page!)();
      }
      expect(sandbox.stats().routes).toBeDefined();
    } finally {
      await sandbox.close();
    }
  });
});
`,
    'README.md': `# ${npm}\n\nA typed client for ${title}, generated from [its spec](${specPath}).\n\n## Install\n\n\`\`\`sh\nnpm install ${npm}\n\`\`\`\n\n## Example\n\n\`\`\`ts\nimport { create${pascal}Client, fromEnv } from '${npm}';\n\nconst client = create${pascal}Client(fromEnv());\n\`\`\`\n\n\`fromEnv()\` reads \`PARTNER_APIS_${name.toUpperCase()}_BASE_URL\` and the credentials of its security scheme. Errors are the typed errors of \`@partner-apis/errors\`.\n`,
  };
}

/**
 * Changes a JSON file: `update` gets the parsed file (`fallback` when there is none) and returns
 * it changed.
 * @param {string} file
 * @param {(value: any) => unknown} update
 * @param {unknown} [fallback]
 */
async function editJson(file, update, fallback) {
  const text = await readFile(file, 'utf8').catch(() => JSON.stringify(fallback));
  await writeFile(file, `${JSON.stringify(update(JSON.parse(text)), null, 2)}\n`);
}

/**
 * Creates `packages/<name>` for the spec at `specFile`, its sandbox document job, its entry in
 * the command line's service list and a changeset. Refuses a name that is not lower-case letters
 * and digits, or a package that exists.
 * @param {string} root the repository
 * @param {string} name e.g. `museum`
 * @param {string} specFile the spec, copied to `specs/<name>/openapi.yaml` unless it is there
 * @returns {Promise<string[]>} the files written, relative to `root`
 */
export async function newService(root, name, specFile) {
  if (!/^[a-z][a-z0-9]*$/.test(name)) {
    throw new Error(`${name}: a service is named with lower-case letters and digits`);
  }
  const dir = join(root, 'packages', name);
  if (
    await readFile(join(dir, 'package.json')).then(
      () => true,
      () => false,
    )
  ) {
    throw new Error(`packages/${name} exists already`);
  }
  const spec = join(root, 'specs', name, 'openapi.yaml');
  if (resolve(specFile) !== spec) {
    await mkdir(join(root, 'specs', name), { recursive: true });
    await cp(resolve(specFile), spec);
  }
  const document = await bundled(spec, relative(root, spec));
  const model = describeSpec(document);
  const info = /** @type {{ title?: unknown }} */ (document.info ?? {});
  const title = typeof info.title === 'string' ? info.title : `the ${name} API`;
  const files = packageFiles(name, `../../specs/${name}/openapi.yaml`, credentialsOf(model), title);
  const written = [];
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), content);
    written.push(`packages/${name}/${path}`);
  }
  await cp(join(root, 'LICENSE'), join(dir, 'LICENSE'));
  await editJson(join(root, 'packages/sandbox/codegen.json'), (config) => ({
    jobs: [
      ...config.jobs,
      { spec: `../../specs/${name}/openapi.yaml`, document: `src/generated/${name}.document.ts` },
    ],
  }));
  await editJson(
    join(root, 'apps/cli/services.json'),
    (list) => [...list, { name, package: `@partner-apis/${name}`, description: title }],
    [],
  );
  await editJson(join(root, 'apps/cli/package.json'), (manifest) => ({
    ...manifest,
    dependencies: { ...manifest.dependencies, [`@partner-apis/${name}`]: 'workspace:^' },
  }));
  // The release checks (hygiene, publish rehearsal) run after every public package is built.
  await editJson(join(root, 'packages/release/package.json'), (manifest) => ({
    ...manifest,
    devDependencies: { ...manifest.devDependencies, [`@partner-apis/${name}`]: 'workspace:*' },
  }));
  const changeset = join(root, '.changeset', `new-service-${name}.md`);
  await mkdir(join(root, '.changeset'), { recursive: true });
  await writeFile(
    changeset,
    `---\n'@partner-apis/${name}': minor\n---\n\nA typed client of ${title}.\n`,
  );
  return [
    ...written,
    'packages/sandbox/codegen.json',
    'apps/cli/services.json',
    'apps/cli/package.json',
    'packages/release/package.json',
    relative(root, changeset),
  ];
}
