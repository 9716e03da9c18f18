import { connect, type Socket } from 'node:net';

/**
 * One HTTP/1.1 connection driven by hand: requests are written as raw bytes (a body may be sent in
 * parts, requests may be pipelined) and responses are read off the socket in order. For tests that
 * need to know exactly which connection carries what, and when.
 */

export type RawResponse = { status: number; headers: Record<string, string>; body: string };

export class RawConnection {
  readonly #socket: Socket;
  #buffer = Buffer.alloc(0);
  #closed = false;
  #waiters: Array<() => void> = [];

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#wake();
    });
    socket.on('close', () => {
      this.#closed = true;
      this.#wake();
    });
    socket.on('error', () => {});
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  get localPort(): number {
    return this.#socket.localPort ?? 0;
  }

  get closed(): boolean {
    return this.#closed;
  }

  write(bytes: string): void {
    this.#socket.write(bytes);
  }

  /** The next complete response (Content-Length framed), or an error if the connection closes first. */
  async response(timeoutMs = 10_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.#take();
      if (parsed) return parsed;
      if (this.#closed) throw new Error(`connection closed before a complete response (${this.#buffer.length} bytes pending)`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no complete response within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Resolves once the server has closed the connection. */
  async closedByServer(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#closed) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`connection still open after ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  destroy(): void {
    this.#socket.destroy();
  }

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  #take(): RawResponse | null {
    const end = this.#buffer.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine = '', ...lines] = this.#buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.#buffer.length < end + 4 + length) return null;
    const body = this.#buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.#buffer = this.#buffer.subarray(end + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }
}

/** A request as bytes; `body` is what follows the headers (callers may send it later, in parts). */
export function rawRequest(method: string, path: string, headers: Record<string, string>, body = ''): { head: string; body: string } {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: payframe.test', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  if (method !== 'GET') lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return { head: `${lines.join('\r\n')}\r\n\r\n`, body };
}
