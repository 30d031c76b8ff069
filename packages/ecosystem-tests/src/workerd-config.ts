/**
 * A workerd configuration that runs the `test` handler of one bundled worker module, with the
 * sandbox's addresses as a text binding and outbound requests allowed to loopback addresses
 * only (workerd's default network refuses them). No `nodejs_compat`: a Node built-in the
 * packages needed would fail the bundle or the run.
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
