import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { locationRecord } from './location-records.js';
import type { RunningService } from './processes.js';

export interface B2ServerInput {
  records: number;
  delayMs: number;
  /** Pages of this size are rendered once at start, so serving one costs next to no CPU. */
  pageSize: number;
}

const LOCATIONS = '/open/portal-api/exposure/locations';
const TOKEN = '/token';

function renderPage(records: number, offset: number, limit: number): Buffer {
  const page = [];
  for (let i = offset; i < Math.min(records, offset + limit); i++) page.push(locationRecord(i));
  return Buffer.from(JSON.stringify(page));
}

/**
 * B2's pre-rendered server: the exposure locations read with `limit` and `offset`, every page
 * answered after `delayMs`, its body rendered before the first request; and a token endpoint
 * that grants any client. It shows what the clients can do when the server costs nothing.
 */
export async function serve(raw: unknown): Promise<RunningService> {
  const input = raw as B2ServerInput;
  const rendered = new Map<number, Buffer>();
  for (let offset = 0; offset <= input.records; offset += input.pageSize) {
    rendered.set(offset, renderPage(input.records, offset, input.pageSize));
  }
  const token = Buffer.from(
    JSON.stringify({ access_token: 'bench-token', token_type: 'Bearer', expires_in: 3600 }),
  );
  const server = createServer((req, res) => {
    req.resume();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === TOKEN) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': token.length });
      res.end(token);
      return;
    }
    if (url.pathname !== LOCATIONS) {
      res.writeHead(404).end();
      return;
    }
    const limit = Math.min(1024, Number(url.searchParams.get('limit') ?? 128));
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const body =
      limit === input.pageSize
        ? (rendered.get(offset) ?? Buffer.from('[]'))
        : renderPage(input.records, offset, limit);
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    }, input.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    info: { baseUrl: origin, tokenUrl: `${origin}${TOKEN}` },
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
