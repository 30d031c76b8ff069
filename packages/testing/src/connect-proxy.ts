import { once } from 'node:events';
import { Agent, createServer, type ClientRequestArgs, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

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

/**
 * An `http.Agent` that opens each connection through the CONNECT tunnel of a proxy on
 * 127.0.0.1 at `proxyPort`; a proxy that answers anything but 200 fails the connection.
 */
export class TunnelAgent extends Agent {
  constructor(private readonly proxyPort: number) {
    super({ keepAlive: false });
  }

  override createConnection(
    options: ClientRequestArgs,
    done?: (error: Error | null, socket: Duplex) => void,
  ): undefined {
    const socket = connect(this.proxyPort, '127.0.0.1', () => {
      socket.write(`CONNECT ${options.host}:${options.port} HTTP/1.1\r\n\r\n`);
      socket.once('data', (reply: Buffer) =>
        /^HTTP\/1\.1 200/.test(reply.toString())
          ? done?.(null, socket)
          : done?.(new Error('the proxy refused the tunnel'), socket),
      );
    });
    socket.once('error', (error) => done?.(error, socket));
    return undefined;
  }
}
