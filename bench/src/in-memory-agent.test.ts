import { describe, expect, it } from 'vitest';
import { httpGetJson } from './b1-clients.js';
import { createInMemoryAgent, jsonResponse } from './in-memory-agent.js';

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
      expect(await httpGetJson('http://127.0.0.1:9/v1/anything', agent)).toEqual({ n: 1 });
    }
    expect(connections).toBe(1);
    agent.destroy();
  });
});
