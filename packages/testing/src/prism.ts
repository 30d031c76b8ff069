import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { stripVTControlCharacters } from 'node:util';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The specs of the repository, by the name of their folder under `specs/`. */
export type PrismSpec = 'auth' | 'exposure' | 'riskengineering' | 'liability' | 'approvals';

/** Every `PrismSpec`. */
export const PRISM_SPECS: readonly PrismSpec[] = [
  'auth',
  'exposure',
  'riskengineering',
  'liability',
  'approvals',
];

/** The environment variable that puts Prism in front of the sandbox in tests. */
export const PRISM_ENV = 'PARTNER_APIS_PRISM';

/** How long Prism may take to start (it compiles the spec first), in ms. */
const START_TIMEOUT_MS = 60_000;

/** A running Prism: a validation proxy, or a mock answering from the spec. */
export interface PrismProxy {
  /** `http://127.0.0.1:<port>`: the spec's paths are served below it. */
  readonly url: string;
  /** Everything Prism printed so far, one entry per line. */
  readonly log: readonly string[];
  /** Stops the proxy. */
  close(): Promise<void>;
}

const specsRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'specs');

/** The path of a spec of this repository. */
export function specPath(spec: PrismSpec): string {
  return join(specsRoot, spec, 'openapi.yaml');
}

function prismBin(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@stoplight/prism-cli/package.json');
  return join(dirname(manifest), 'dist', 'index.js');
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts Stoplight Prism (`prism proxy <spec> <upstream> --errors`) on 127.0.0.1 on a free
 * port: it forwards every request to `upstream` and answers with an error instead of any request
 * or response that breaks the spec, so a test that passes through it had no violation.
 */
export function startPrismProxy(spec: PrismSpec, upstream: string): Promise<PrismProxy> {
  return startPrism(spec, ['proxy', specPath(spec), upstream, '--errors']);
}

/**
 * Starts Stoplight Prism as a mock of the spec at `file` (`prism mock <file> --errors`) on
 * 127.0.0.1 on a free port: it answers every request from the spec's examples and schemas, and
 * with an error any request that breaks the spec.
 */
export function startPrismMock(file: string): Promise<PrismProxy> {
  return startPrism(file, ['mock', file, '--errors']);
}

async function startPrism(spec: string, args: readonly string[]): Promise<PrismProxy> {
  const child = spawn(process.execPath, [prismBin(), ...args, '-h', '127.0.0.1', '-p', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  const log: string[] = [];
  let pending = '';
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`Prism did not start for ${spec} within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        // Prism colours its lines even without a terminal.
        const plain = stripVTControlCharacters(line);
        log.push(plain);
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(plain)?.[1];
        if (url !== undefined) {
          clearTimeout(timer);
          resolve(url);
        }
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code} for ${spec}:\n${log.join('\n')}`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  let url: string;
  try {
    url = await listening;
  } catch (error) {
    await stop(child);
    throw error;
  }
  return {
    url,
    log,
    close: () => stop(child),
  };
}

/** The URLs of a sandbox that `withPrism` replaces. */
export interface SandboxUrls {
  readonly tokenUrl: string;
  readonly exposure: string;
  readonly riskEngineering: string;
  readonly liability: string;
  readonly approvals: string;
}

const TOKEN_PATH = '/login/connect/token';

/**
 * The specs `PARTNER_APIS_PRISM` names: `1` or `all` for every spec, or a comma-separated list
 * (`auth,exposure`); none when it is unset, empty or `0`.
 */
export function prismSpecsFromEnv(env: NodeJS.ProcessEnv = process.env): PrismSpec[] {
  const value = env[PRISM_ENV]?.trim() ?? '';
  if (value === '' || value === '0') return [];
  if (value === '1' || value === 'all') return [...PRISM_SPECS];
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !PRISM_SPECS.includes(name as PrismSpec));
  if (unknown.length > 0) {
    throw new Error(`${PRISM_ENV} names unknown specs: ${unknown.join(', ')}`);
  }
  return names as PrismSpec[];
}

interface Answer {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  body: Buffer;
}

interface Forwarded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** Sends a request to `base` and reads the whole answer. */
function send(base: string, request: Forwarded): Promise<Answer> {
  const url = new URL(`${base}${request.path}`);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method: request.method, headers: { ...request.headers, host: url.host } },
      (answer) => {
        readAll(answer).then(
          (body) =>
            resolve({
              status: answer.statusCode ?? 502,
              statusMessage: answer.statusMessage ?? '',
              rawHeaders: answer.rawHeaders,
              body,
            }),
          reject,
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** Passes a request to `base` and the answer back byte for byte: a reset or a cut body stays one. */
function pipeThrough(base: string, request: Forwarded, response: ServerResponse): void {
  const url = new URL(`${base}${request.path}`);
  const outgoing = httpRequest(
    url,
    { method: request.method, headers: { ...request.headers, host: url.host } },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
      answer.pipe(response);
      answer.on('aborted', () => response.destroy());
      answer.on('error', () => response.destroy());
    },
  );
  outgoing.on('error', () => response.socket?.destroy());
  outgoing.end(request.body);
}

/** The error Prism made up in place of an answer (`UNPROCESSABLE_ENTITY`, `VIOLATIONS`, …). */
function prismError(answer: Answer): { type: string; text: string } | undefined {
  const text = answer.body.toString('utf8');
  const type = /"type":"https:\/\/stoplight\.io\/prism\/errors#([A-Z_]+)"/.exec(text)?.[1];
  return type === undefined ? undefined : { type, text };
}

/** Prism's refusals of a request (rather than of the upstream's answer). */
const REQUEST_REFUSALS = new Set([
  'UNPROCESSABLE_ENTITY',
  'UNAUTHORIZED',
  'NO_PATH_MATCHED_ERROR',
  'NO_METHOD_MATCHED_ERROR',
]);

interface PrismFinding {
  location?: unknown[];
  code?: string;
  message?: string;
}

/**
 * Prism's blind spot on the token request: it neither reads `+` as a space in a form body (RFC
 * 6749 Appendix B and every form encoder do) nor splits a `spaceDelimited` form field, so the
 * `scope` of every valid token request is refused ("Reserved characters", or `enum` on the whole
 * joined value). Only a refusal whose findings are all of these two kinds on `body.scope` of
 * `POST /login/connect/token` is set aside; the sandbox, which splits the field and checks each
 * scope against the same spec, then judges the request alone.
 */
function isScopeBlindSpot(request: Forwarded, error: { type: string; text: string }): boolean {
  if (request.method !== 'POST' || request.path !== TOKEN_PATH) return false;
  if (error.type !== 'UNPROCESSABLE_ENTITY') return false;
  let findings: PrismFinding[];
  try {
    findings = (JSON.parse(error.text) as { validation?: PrismFinding[] }).validation ?? [];
  } catch {
    return false;
  }
  return (
    findings.length > 0 &&
    findings.every(
      ({ location = [], code, message = '' }) =>
        location[0] === 'body' &&
        location[1] === 'scope' &&
        (message.startsWith('Reserved characters') || code === 'enum'),
    )
  );
}

interface Route {
  readonly prism: string;
  readonly direct: string;
}

/**
 * A router on 127.0.0.1 in front of one Prism proxy. It sends each request through Prism, and
 * straight to the sandbox while `bypass()` is true. When Prism refuses a request itself, the
 * router asks the sandbox too: when the sandbox refuses it as well (a 4xx), the test sent an
 * invalid request on purpose and gets the sandbox's answer; otherwise the two judges disagree,
 * which is a violation. Every answer Prism made up for a broken response is a violation.
 */
async function startRouter(route: Route, bypass: () => boolean, violations: string[]) {
  const server = createServer((request, response) => {
    void readAll(request)
      .then(async (body) => {
        const forwarded: Forwarded = {
          method: request.method ?? 'GET',
          path: request.url ?? '/',
          headers: request.headers,
          body,
        };
        if (bypass()) {
          pipeThrough(route.direct, forwarded, response);
          return;
        }
        let answer = await send(route.prism, forwarded);
        const error = prismError(answer);
        if (error !== undefined && isScopeBlindSpot(forwarded, error)) {
          answer = await send(route.direct, forwarded);
        } else if (error !== undefined) {
          const direct = REQUEST_REFUSALS.has(error.type)
            ? await send(route.direct, forwarded)
            : undefined;
          if (direct !== undefined && direct.status >= 400 && direct.status < 500) {
            answer = direct;
          } else {
            violations.push(`${forwarded.method} ${forwarded.path.split('?')[0]}: ${error.text}`);
          }
        }
        response.writeHead(answer.status, answer.statusMessage, answer.rawHeaders);
        response.end(answer.body);
      })
      .catch(() => response.socket?.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What `withPrism` adds to a sandbox. */
export interface PrismJudged {
  /** The Prism proxies, one per spec. */
  readonly prism: readonly PrismProxy[];
  /** The violations found so far (also thrown by `close`). */
  readonly prismViolations: readonly string[];
}

/** What `withPrism` needs of a sandbox. */
export interface PrismableSandbox {
  readonly urls: SandboxUrls;
  close(): Promise<void>;
  fault(selector: string, plan: unknown): void;
  clearFaults(selector?: string): void;
}

/**
 * Puts one Prism proxy per spec in front of a sandbox and gives the sandbox back with those
 * URLs in place of its own (every other member unchanged); `close` stops the proxies, closes
 * the sandbox and throws when there was a violation: a request Prism refused but the sandbox
 * accepted, or an answer of the sandbox that Prism found breaking the spec.
 *
 * While a test has a fault of the sandbox armed (`fault()` until `clearFaults()`), requests go
 * to the sandbox directly: an injected 502 page or reset breaks the spec on purpose, and Prism
 * would answer in its place.
 */
export async function withPrism<T extends PrismableSandbox>(
  sandbox: T,
  specs: readonly PrismSpec[] = PRISM_SPECS,
): Promise<T & PrismJudged> {
  const { urls } = sandbox;
  const upstreams: Record<PrismSpec, string> = {
    auth: urls.tokenUrl.slice(0, -TOKEN_PATH.length),
    exposure: urls.exposure,
    riskengineering: urls.riskEngineering,
    liability: urls.liability,
    approvals: urls.approvals,
  };
  const started = await Promise.allSettled(
    specs.map((spec) => startPrismProxy(spec, upstreams[spec])),
  );
  const proxies = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed !== undefined) {
    await Promise.all(proxies.map((p) => p.close()));
    throw failed.reason;
  }
  let faultsArmed = false;
  const violations: string[] = [];
  const routers = await Promise.all(
    specs.map((spec, i) =>
      startRouter(
        { prism: proxies[i]!.url, direct: upstreams[spec] },
        () => faultsArmed,
        violations,
      ),
    ),
  );
  const routed = (spec: PrismSpec) => routers[specs.indexOf(spec)]?.url;
  const proxied: SandboxUrls = {
    ...urls,
    tokenUrl: routed('auth') === undefined ? urls.tokenUrl : `${routed('auth')}${TOKEN_PATH}`,
    exposure: routed('exposure') ?? urls.exposure,
    riskEngineering: routed('riskengineering') ?? urls.riskEngineering,
    liability: routed('liability') ?? urls.liability,
    approvals: routed('approvals') ?? urls.approvals,
  };
  const close = async () => {
    await Promise.all([...routers, ...proxies].map((p) => p.close()));
    await sandbox.close();
    if (violations.length > 0) {
      throw new Error(`Prism reported violations:\n${violations.join('\n')}`);
    }
  };
  const overrides: Record<PropertyKey, unknown> = {
    urls: proxied,
    close,
    prism: proxies,
    prismViolations: violations,
    fault(selector: string, plan: unknown) {
      faultsArmed = true;
      sandbox.fault(selector, plan);
    },
    clearFaults(selector?: string) {
      sandbox.clearFaults(selector);
      if (selector === undefined) faultsArmed = false;
    },
  };
  // A Proxy, not a copy: the sandbox's own methods keep their `this`.
  return new Proxy(sandbox, {
    get(target, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  }) as T & PrismJudged;
}
