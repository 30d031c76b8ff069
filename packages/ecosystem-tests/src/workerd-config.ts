/**
 * A workerd configuration that runs the `test` handler of one bundled worker module, with the
 * sandbox's addresses as a text binding and outbound requests allowed to loopback addresses
 * only (workerd's default network refuses them). No `nodejs_compat`: a Node built-in the
 * packages needed would fail the bundle or the run.
 *
 * @example
 * await writeFile('config.capnp', workerdConfig('worker.js', JSON.stringify(state)));
 */
export function workerdConfig(modulePath: string, sandboxJson: string): string {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .readmeWorker),
    (name = "loopback", network = (allow = ["local"])),
  ],
);

const readmeWorker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed ${JSON.stringify(modulePath)})],
  compatibilityDate = "2025-09-01",
  bindings = [(name = "SANDBOX", text = ${JSON.stringify(sandboxJson)})],
  globalOutbound = "loopback",
);
`;
}

/** The worker's entry: runs the example's tests when `workerd test` calls it. */
export const WORKER_ENTRY = `import { runReadmeTests, useSandbox } from './harness.ts';
import './example.ts';

export default {
  async test(_controller, env) {
    useSandbox(JSON.parse(env.SANDBOX));
    const { failed } = await runReadmeTests();
    if (failed > 0) throw new Error(failed + ' README test(s) failed');
  },
};
`;

/** The entry of Bun and Deno: the sandbox comes in an environment variable. */
export const SCRIPT_ENTRY = `import { runReadmeTests, useSandbox } from './harness.ts';
import './example.ts';

const env = globalThis.Deno?.env.toObject() ?? globalThis.process.env;
useSandbox(JSON.parse(env.PARTNER_APIS_SANDBOX));
const { failed } = await runReadmeTests();
if (failed > 0) throw new Error(failed + ' README test(s) failed');
`;
