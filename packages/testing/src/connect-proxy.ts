import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** A forward proxy on 127.0.0.1, and the `host:port` of each tunnel it was asked for. */
export interface ConnectProxy {
  /** `http://127.0.0.1:<port>`, for `HTTP_PROXY` and `HTTPS_PROXY`. */
  readonly url: string;
  readonly port: number;
  readonly tunnels: readonly string[];
  close(): void;
}

/**
 * Starts a forward proxy on 127.0.0.1 that tunnels what it is asked to with CONNECT, as clients
 * of `HTTP_PROXY` and `HTTPS_PROXY` ask, and answers anything else 405.
 */
export async function startConnectProxy(): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const proxy = createServer((_, answer) => answer.writeHead(405).end());
  proxy.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.push(request.url ?? '');
    const [host = '', port = ''] = (request.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  const { port } = proxy.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, tunnels, close: () => proxy.close() };
}
