import { Agent } from 'node:http';
import { Duplex } from 'node:stream';

/** The end of a request's head; a GET without a body ends there. */
const HEAD_END = '\r\n\r\n';

/**
 * A connection that never leaves the process: every request written to it (a GET, head only)
 * is answered with the same response bytes. It stands in for a socket, so `node:http` does all
 * its own work on both sides of it, but the kernel does none.
 */
class InMemorySocket extends Duplex {
  readonly remoteAddress = '127.0.0.1';
  #head = '';

  constructor(private readonly response: Buffer) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.#head += chunk.toString('latin1');
    if (this.#head.endsWith(HEAD_END)) {
      this.#head = '';
      // Answer after the write returns, as a socket's data arrives on a later turn.
      queueMicrotask(() => this.push(this.response));
    }
    callback();
  }

  override _read(): void {}

  // What `node:http` calls on a net.Socket; none of it means anything in memory.
  setKeepAlive(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setTimeout(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

/** An HTTP/1.1 200 answer with `body` as JSON, kept alive, as the B1 server sends it. */
export function jsonResponse(body: Buffer): Buffer {
  const head = [
    'HTTP/1.1 200 OK',
    'Content-Type: application/json',
    `Content-Length: ${body.length}`,
    `Date: ${new Date().toUTCString()}`,
    'Connection: keep-alive',
    'Keep-Alive: timeout=30',
    '',
    '',
  ].join('\r\n');
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/**
 * A keep-alive `http.Agent` whose connections are in memory and answer every GET with
 * `response`: what a client spends per request in JavaScript, without the kernel's share,
 * which is most of a request's CPU on loopback and varies the most between runs.
 *
 * @example
 * const agent = createInMemoryAgent(jsonResponse(Buffer.from('{"n":1}')));
 * http.get('http://127.0.0.1/any', { agent }, (res) => res.resume());
 */
export function createInMemoryAgent(response: Buffer): Agent {
  const agent = new Agent({ keepAlive: true });
  // A connection returned at once is used at once; `connect` follows, as from a net.Socket.
  agent.createConnection = () => {
    const socket = new InMemorySocket(response);
    process.nextTick(() => socket.emit('connect'));
    return socket as never;
  };
  return agent;
}
