import { createInMemoryAgent, jsonResponse } from './dist/in-memory-agent.js';
import { approvalsPage } from './dist/approvals-page.js';
import { benchCredentials } from './dist/credentials.js';
import { createApprovalsClient } from '@partner-apis/approvals';
import { request as httpGet, Agent } from 'node:http';
const agent = createInMemoryAgent(jsonResponse(Buffer.from(approvalsPage())));
const which = process.argv[2];
const N = +(process.argv[3] ?? 20000);
let call;
if (which === 'ours') {
  const { approvals } = createApprovalsClient({ baseUrl: 'http://127.0.0.1:9', credentials: benchCredentials.approvals, agent });
  call = () => approvals.list('100234');
} else {
  call = () => new Promise((resolve, reject) => {
    const req = httpGet('http://127.0.0.1:9/employees/100234/approvals', { agent }, (res) => {
      const chunks = []; res.on('data', (c) => chunks.push(c)); res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
    }); req.on('error', reject); req.end();
  });
}
for (let i = 0; i < 3000; i++) await call();
const c0 = process.cpuUsage(); const t0 = performance.now();
for (let i = 0; i < N; i++) await call();
const c = process.cpuUsage(c0);
console.log(which, ((c.user + c.system) / N).toFixed(1), 'µs/req cpu', ((performance.now() - t0) * 1000 / N).toFixed(1), 'µs/req wall');
