import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server does with one request. Every field is optional: `{}` is an empty 200. */
export interface FaultStep {
  /** HTTP status; 200 by default, 302 when `redirect` is set. */
  status?: number;
  /** Response headers, added to (and overriding) the defaults. */
  headers?: Record<string, string>;
  /**
   * A string or bytes are sent as they are; any other value as JSON with `content-type:
   * application/json`.
   */
  body?: unknown;
  /** Waits this long before sending the status line, to let a client time out on headers. */
  delayMs?: number;
  /** Destroys the connection before anything is sent back. */
  reset?: boolean;
  /** Sends the headers and the first half of the body, then nothing until the client gives up. */
  stall?: boolean;
  /** Announces the full `content-length`, sends half the body, then destroys the connection. */
  truncate?: boolean;
  /** Answers with this `location` (status 302 unless `status` says otherwise). */
  redirect?: string;
}

/** One request as the server saw it. */
export interface RecordedRequest {
  /** Position of the request among all requests the server received, from 0. */
  readonly index: number;
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  /** Path without the query. */
  readonly path: string;
  /** Header names in lower case, as Node parses them. */
  readonly headers: IncomingHttpHeaders;
  /** The request body as UTF-8 text. */
  readonly body: string;
  /** True once the client closed the connection before the response was complete. */
  readonly aborted: boolean;
}

/** Decides the step of one request; may wait (for example until a test releases it). */
export type FaultHandler = (request: RecordedRequest) => FaultStep | Promise<FaultStep>;

/**
 * A script: steps taken in order, one per request (the last repeats once the list is used up),
 * or a function of the request.
 */
export type FaultScript = readonly FaultStep[] | FaultHandler;

/** Scripts per path (without the query); a request to any other path gets a 404. */
export type FaultRoutes = Readonly<Record<string, FaultScript>>;

/** A running fault server. */
export interface FaultServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  /** Every request received so far, in order of arrival. */
  readonly requests: readonly RecordedRequest[];
  /** The requests received on one path (without the query). */
  requestsTo(path: string): RecordedRequest[];
  /** Replaces the script and starts its steps from the first again. Recorded requests stay. */
  setScript(script: FaultScript | FaultRoutes): void;
  /** Resolves once at least `count` requests arrived; rejects after `timeoutMs` (2000). */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Destroys every open connection (stalled ones too) and stops listening. */
  close(): Promise<void>;
}

interface MutableRecord {
  index: number;
  method: string;
  url: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  aborted: boolean;
}

function isRoutes(script: FaultScript | FaultRoutes): script is FaultRoutes {
  return !Array.isArray(script) && typeof script !== 'function';
}

/** Turns a script into a function of the request, keeping a step counter per script. */
function compile(script: FaultScript | FaultRoutes): FaultHandler {
  if (isRoutes(script)) {
    const routes = new Map(Object.entries(script).map(([path, s]) => [path, compile(s)]));
    return (request) =>
      routes.get(request.path)?.(request) ?? {
        status: 404,
        body: {
          code: 'not_found',
          message: `The fault server has no script for ${request.path}.`,
          correlationId: 'fault-server',
        },
      };
  }
  if (typeof script === 'function') return script as FaultHandler;
  const steps = script as readonly FaultStep[];
  let next = 0;
  return () => {
    const step = steps[Math.min(next, steps.length - 1)] ?? {};
    next += 1;
    return step;
  };
}

function encode(step: FaultStep): { headers: Record<string, string>; body: Buffer } {
  const headers: Record<string, string> = {};
  let body = Buffer.alloc(0);
  if (typeof step.body === 'string') {
    body = Buffer.from(step.body, 'utf8');
  } else if (step.body instanceof Uint8Array) {
    body = Buffer.from(step.body);
  } else if (step.body !== undefined) {
    body = Buffer.from(JSON.stringify(step.body), 'utf8');
    headers['content-type'] = 'application/json';
  }
  if (step.redirect !== undefined) headers.location = step.redirect;
  headers['content-length'] = String(body.length);
  return { headers: { ...headers, ...step.headers }, body };
}

function respond(response: ServerResponse, step: FaultStep, timers: Set<NodeJS.Timeout>): void {
  if (step.reset) {
    response.socket?.destroy();
    return;
  }
  const { headers, body } = encode(step);
  const status = step.status ?? (step.redirect === undefined ? 200 : 302);
  const send = () => {
    if (response.destroyed) return;
    response.writeHead(status, headers);
    if (step.stall || step.truncate) {
      const half = body.subarray(0, Math.floor(body.length / 2));
      // Destroy only once the half is flushed, so the client sees headers and a short body.
      response.write(half, () => {
        if (step.truncate) response.socket?.destroy();
      });
      return;
    }
    response.end(body);
  };
  if (step.delayMs === undefined) {
    send();
    return;
  }
  const timer = setTimeout(() => {
    timers.delete(timer);
    send();
  }, step.delayMs);
  timers.add(timer);
  response.on('close', () => {
    clearTimeout(timer);
    timers.delete(timer);
  });
}

/**
 * Starts a scripted HTTP server on 127.0.0.1, on a free port unless `options.port` names one,
 * for tests that need real HTTP and real failures: delays, resets, stalled or truncated bodies,
 * redirects, any status and body.
 */
export async function startFaultServer(
  script: FaultScript | FaultRoutes = [],
  options: { port?: number } = {},
): Promise<FaultServer> {
  let handle = compile(script);
  const requests: MutableRecord[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const arrivals = new Set<() => void>();

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = request.url ?? '/';
      const record: MutableRecord = {
        index: requests.length,
        method: request.method ?? 'GET',
        url,
        path: url.split('?')[0] ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        aborted: false,
      };
      requests.push(record);
      response.on('close', () => {
        if (!response.writableFinished) record.aborted = true;
      });
      for (const notify of arrivals) notify();
      Promise.resolve(handle(record)).then(
        (step) => respond(response, step, timers),
        (error: unknown) => {
          response.writeHead(500, { 'content-type': 'text/plain' });
          response.end(`fault server script failed: ${String(error)}`);
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    setScript(next) {
      handle = compile(next);
    },
    waitForRequests(count, timeoutMs = 2000) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`expected ${count} requests, got ${requests.length}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          arrivals.delete(check);
        };
        arrivals.add(check);
      });
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * An `http://127.0.0.1:<port>` URL on which nothing listens, so a connection is refused.
 */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
