import { startFaultServer } from '@partner-apis/testing';
import { expect, it, vi } from 'vitest';
import { createClientPipeline } from '../index.js';

const imported = vi.hoisted(() => ({ api: false }));
vi.mock('@opentelemetry/api', async (importOriginal) => {
  imported.api = true;
  return importOriginal();
});

it('never imports @opentelemetry/api for a client without tracing', async () => {
  const server = await startFaultServer([{ body: { ok: true } }, { body: { ok: true } }]);
  try {
    const { fetch } = createClientPipeline({ baseUrl: server.url });
    expect((await fetch(new Request(`${server.url}/items`))).status).toBe(200);
    expect(imported.api).toBe(false);

    const traced = createClientPipeline({ baseUrl: server.url, tracing: true });
    expect(imported.api).toBe(false);
    await traced.fetch(new Request(`${server.url}/items`));
    expect(imported.api).toBe(true);
  } finally {
    await server.close();
  }
});
