import { get } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createInMemoryAgent, jsonResponse } from './in-memory-agent.js';

function getJson(url: string, agent: ReturnType<typeof createInMemoryAgent>) {
  return new Promise<{ status: number | undefined; body: unknown }>((resolve, reject) => {
    get(url, { agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        }),
      );
    }).on('error', reject);
  });
}

describe('createInMemoryAgent', () => {
  it('answers every GET with the response, on one kept-alive connection', async () => {
    const agent = createInMemoryAgent(jsonResponse(Buffer.from('{"n":1}')));
    let connections = 0;
    const create = agent.createConnection.bind(agent);
    agent.createConnection = (...args: Parameters<typeof create>) => {
      connections += 1;
      return create(...args);
    };
    for (let i = 0; i < 3; i++) {
      expect(await getJson('http://127.0.0.1:9/v1/anything', agent)).toEqual({
        status: 200,
        body: { n: 1 },
      });
    }
    expect(connections).toBe(1);
    agent.destroy();
  });
});
