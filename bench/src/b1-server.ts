import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { approvalsPage } from './approvals-page.js';
import type { RunningService } from './processes.js';

/** The B1 server: answers every GET with the same approvals page, as fast as node:http can. */
export async function serve(): Promise<RunningService> {
  const body = Buffer.from(approvalsPage());
  const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };
  const server = createServer((req, res) => {
    // Drain the request so keep-alive connections stay usable.
    req.resume();
    res.writeHead(200, headers);
    res.end(body);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    info: { port: (server.address() as AddressInfo).port, bytes: body.length },
    call: () => Promise.reject(new Error('the B1 server takes no calls')),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
