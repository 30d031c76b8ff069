import { describe, expect, it } from 'vitest';
import type { Operation, OperationService } from '../commands/operations.js';
import type { ServiceSession } from '../service-session.js';
import { createToolRunner } from './call-tool.js';
import { mcpTools } from './tools.js';

const getThing: Operation = {
  operationId: 'getThing',
  resource: 'things',
  verb: 'get',
  method: 'GET',
  path: '/things',
  arguments: [],
  parameters: [],
  response: { kind: 'json', type: 'object' },
  security: [],
};

/** A runner of one tool, `demo_things_get`, whose client answers `answer`. */
function runner(answer: unknown, secrets: readonly string[]) {
  const service = {
    name: 'demo',
    description: 'a service of this test',
    operations: { getThing },
    client: () => Promise.resolve({ things: { get: () => Promise.resolve(answer) } }),
  } as unknown as OperationService;
  const session = { secrets: () => secrets } as unknown as ServiceSession;
  return createToolRunner(mcpTools([service]), session, { maxResultBytes: 25_000 });
}

describe('a tool result', () => {
  it('has no secret in its text nor in its structured content', async () => {
    const call = runner({ echo: 'key=s3cr3t-value', ['s3cr3t-value']: 1 }, ['s3cr3t-value']);
    const answer = await call('demo_things_get', {});
    expect(answer.structuredContent).toEqual({ echo: 'key=[redacted]', '[redacted]': 1 });
    expect(JSON.parse(answer.content[0]!.text)).toEqual(answer.structuredContent);
  });

  it('stays JSON when a secret looks like JSON syntax', async () => {
    const call = runner({ echo: 'a"}b', other: 'c' }, ['"}']);
    const answer = await call('demo_things_get', {});
    expect(answer.isError).toBeUndefined();
    expect(answer.structuredContent).toEqual({ echo: 'a[redacted]b', other: 'c' });
    expect(JSON.parse(answer.content[0]!.text)).toEqual(answer.structuredContent);
  });
});
