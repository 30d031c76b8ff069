// How the default transport compares with raw undici.request and raw node:http: GETs of a
// ~12.6 kB JSON body from a server on 127.0.0.1 (in a child process), at 1 and 32 calls in
// flight, as calls per CPU-second of the calling process (higher is better).
// Run after `pnpm build`: node packages/core/scripts/transport-ratio.mjs
import { Buffer } from 'node:buffer';
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

if (process.argv[2] === 'serve') {
  const { createServer } = await import('node:http');
  const items = Array.from({ length: 245 }, (_, i) => ({
    id: `A-${100000 + i}`,
    status: i % 3 === 0 ? 'approved' : 'pending',
    amount: i * 17.5,
  }));
  const body = Buffer.from(JSON.stringify({ employeeNumber: '100234', items }));
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () =>
    process.send?.({ port: server.address().port, bytes: body.length }),
  );
} else {
  const require = createRequire(new URL('../../transport-undici/package.json', import.meta.url));
  const { Agent, request } = require('undici');
  const { createServiceClient, expectData } = await import('../dist/index.js');
  const { clientIdHeaders } = await import('@partner-apis/auth');
  const { Agent: HttpAgent, get: httpGet } = await import('node:http');

  const child = fork(fileURLToPath(import.meta.url), ['serve']);
  const { port, bytes } = await new Promise((resolve) => child.once('message', resolve));
  const base = `http://127.0.0.1:${port}`;
  const url = `${base}/approvals?employeeNumber=100234`;

  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const clients = {
    'undici.request': async () => {
      const { body } = await request(url, { dispatcher: agent });
      return body.json();
    },
    'node:http': (() => {
      const keepAlive = new HttpAgent({ keepAlive: true });
      return () =>
        new Promise((resolve, reject) => {
          httpGet(url, { agent: keepAlive }, (res) => {
            const chunks = [];
            res.on('data', (chunk) => chunks.push(chunk));
            res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
          }).on('error', reject);
        });
    })(),
    'our client': (() => {
      const credentials = { clientId: 'ratio', clientSecret: 'ratio-secret' };
      const { raw } = createServiceClient(
        { baseUrl: base, credentials },
        { auth: () => clientIdHeaders(credentials) },
      );
      const query = { employeeNumber: '100234' };
      return async () => expectData(await raw.GET('/approvals', { params: { query } }), 'GET');
    })(),
  };

  /**
   * Calls per second of this process's CPU time (user + system) over `total` calls with
   * `concurrency` in flight: on a shared machine, wall-clock throughput mostly measures the
   * neighbours.
   */
  async function rate(call, concurrency, total) {
    let started = 0;
    const worker = async () => {
      while (started < total) {
        started += 1;
        await call();
      }
    };
    const begin = process.cpuUsage();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const used = process.cpuUsage(begin);
    return total / ((used.user + used.system) / 1e6);
  }

  console.log(`body: ${bytes} bytes`);
  for (const concurrency of [1, 32]) {
    const total = concurrency === 1 ? 4000 : 12_000;
    const rates = {};
    for (const call of Object.values(clients)) await rate(call, concurrency, 1500);
    // Alternate the clients over three rounds, keeping each one's best.
    for (let round = 0; round < 3; round += 1) {
      for (const [name, call] of Object.entries(clients)) {
        rates[name] = Math.max(rates[name] ?? 0, await rate(call, concurrency, total));
      }
    }
    const undici = rates['undici.request'];
    const line = Object.entries(rates).map(
      ([name, value]) => `${name} ${value.toFixed(0)}/CPU-s (${(value / undici).toFixed(2)})`,
    );
    console.log(`c=${concurrency}: ${line.join(', ')}`);
  }
  await agent.close();
  child.kill();
}
