import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Document } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyHome } from './mcp.fixture.js';

/** What this test uses of the release package's rehearsal (`spec-change-rehearsal.js`). */
interface RehearsalWorkspace {
  readonly root: string;
  editSpec(spec: string, edit: (document: Document) => void): Promise<void>;
  regenerate(pkg: string): Promise<void>;
  build(pkg: string): Promise<void>;
  remove(): Promise<void>;
}

// The release package's rehearsal of a spec edit, which the command line does not depend on:
// read from the repository, as its own rehearsal tests do.
const rehearsal = (await import(
  new URL('../../../../packages/release/src/spec-change-rehearsal.js', import.meta.url).href
)) as {
  copyWorkspace(services: string[], apps: string[]): Promise<RehearsalWorkspace>;
};

/**
 * "A new operation in a spec becomes a tool after `pnpm generate` and `pnpm build`, with no
 * other change": a paged read added to the risk engineering spec, in a copy of the workspace.
 */
let workspace: RehearsalWorkspace | undefined;
let home: Awaited<ReturnType<typeof emptyHome>>;
let client: Client;

beforeAll(async () => {
  home = await emptyHome();
  workspace = await rehearsal.copyWorkspace(
    ['riskengineering', 'exposure', 'liability', 'approvals', 'sandbox', 'verify'],
    ['cli'],
  );
  await workspace.editSpec('riskengineering', (doc) => {
    const gradings = doc.getIn(['paths', '/open/portal-api/riskengineering/Gradings', 'get']) as {
      toJSON(): Record<string, unknown>;
    };
    const inspections = {
      ...gradings.toJSON(),
      operationId: 'listInspections',
      summary: 'List inspections',
    };
    doc.setIn(
      ['paths', '/open/portal-api/riskengineering/Inspections'],
      doc.createNode({ get: inspections }),
    );
  });
  for (const pkg of ['riskengineering', 'sandbox']) await workspace.regenerate(pkg);
  for (const pkg of ['riskengineering', 'sandbox', 'apps/cli']) await workspace.build(pkg);
  client = new Client({ name: 'partner-apis-tests', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(workspace.root, 'apps/cli/dist/bin.js'), 'mcp'],
      env: { PATH: process.env.PATH ?? '', HOME: home.dir, XDG_CONFIG_HOME: home.dir },
      cwd: home.dir,
      stderr: 'ignore',
    }),
  );
}, 600_000);

afterAll(async () => {
  await client?.close();
  await workspace?.remove();
  await home?.remove();
});

describe('a paged read added to a spec, with no other edit', () => {
  it('is a tool, described by the spec, that reads the sandbox a page at a time', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.name === 'riskengineering_inspections_list');
    expect(tool?.title).toBe('List inspections');
    expect(tool?.inputSchema.properties).toHaveProperty('maxItems');
    const answer = await client.callTool({
      name: 'riskengineering_inspections_list',
      arguments: { maxItems: 3 },
    });
    expect(answer.isError).toBeUndefined();
    expect(answer.structuredContent).toMatchObject({
      records: [expect.any(Object), expect.any(Object), expect.any(Object)],
      nextCursor: expect.any(String),
    });
  });
});
