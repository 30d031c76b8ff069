import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { locationRecord } from './location-records.js';
import type { RunningService } from './processes.js';

export interface B2ServerInput {
  records: number;
  delayMs: number;
}

const PATH = '/open/portal-api/exposure/locations';

/**
 * B2's own paging server, used while the sandbox is not available: the exposure locations read
 * with `limit` and `offset`, every page answered after `delayMs`.
 */
export async function serve(raw: unknown): Promise<RunningService> {
  const input = raw as B2ServerInput;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== PATH) {
      res.writeHead(404).end();
      return;
    }
    const limit = Math.min(1024, Number(url.searchParams.get('limit') ?? 128));
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const end = Math.min(input.records, offset + limit);
    const page = [];
    for (let i = offset; i < end; i++) page.push(locationRecord(i));
    const body = JSON.stringify(page);
    setTimeout(() => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    }, input.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    info: { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
    call: async (method) => {
      if (method === 'cpuUsage') return process.cpuUsage();
      throw new Error(`the B2 server has no method ${method}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
