import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const OPENSSL = '/usr/bin/openssl';

/** Whether `startSelfSignedServer` can make its certificate: Debian's openssl is installed. */
export const HAS_OPENSSL = existsSync(OPENSSL);

/** An HTTPS server on 127.0.0.1 whose certificate nobody trusts. */
export interface SelfSignedServer {
  /** `https://127.0.0.1:<port>`. */
  readonly url: string;
  close(): void;
}

/**
 * Starts an HTTPS server on 127.0.0.1 with a self-signed certificate made for it by openssl,
 * which no client trusts: the server a TLS failure is tested against. It answers `{}` unless
 * given a handler.
 *
 * @example
 * const server = await startSelfSignedServer();
 * await expect(fetch(server.url)).rejects.toThrow();
 * server.close();
 */
export async function startSelfSignedServer(
  handler: RequestListener = (_, answer) => answer.end('{}'),
): Promise<SelfSignedServer> {
  const keys = await mkdtemp(join(tmpdir(), 'self-signed-'));
  try {
    // An elliptic-curve key: made at once even on a busy machine, where RSA can take seconds.
    const certificate =
      'req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout key.pem -out cert.pem -days 1';
    await promisify(execFile)(OPENSSL, [...certificate.split(' '), '-subj', '/CN=127.0.0.1'], {
      cwd: keys,
    });
    const server = createServer(
      { key: await readFile(join(keys, 'key.pem')), cert: await readFile(join(keys, 'cert.pem')) },
      handler,
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    return { url: `https://127.0.0.1:${port}`, close: () => server.close() };
  } finally {
    await rm(keys, { recursive: true, force: true });
  }
}
