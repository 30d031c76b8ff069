// @ts-check
// The child process of `startLocalRegistry`: a verdaccio on 127.0.0.1 and a free port, without
// uplinks, storing in the folder given as the first argument. It prints `LISTENING <json>` once
// it accepts connections, and stops when its parent closes stdin or sends SIGTERM.
import { join } from 'node:path';
import { runServer } from 'verdaccio';

const dir = process.argv[2];
if (!dir) throw new Error('usage: local-registry-server.js <storage folder>');

const server = await runServer({
  self_path: join(dir, 'config.yaml'),
  storage: join(dir, 'storage'),
  auth: { htpasswd: { file: join(dir, 'htpasswd'), max_users: 10 } },
  uplinks: {},
  packages: { '**': { access: '$all', publish: '$authenticated' } },
  web: { enable: false },
  log: { type: 'stdout', format: 'pretty', level: 'error' },
  server: { keepAliveTimeout: 1 },
});

/** @type {import('node:http').Server} */
const http = server;
http.listen(0, '127.0.0.1', () => {
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : undefined;
  process.stdout.write(`LISTENING ${JSON.stringify({ port })}\n`);
});

const stop = () => {
  http.close();
  http.closeAllConnections();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
