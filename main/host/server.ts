/**
 * The web-mode host: serves the built renderer over HTTP and the StudioApi over a WebSocket,
 * for headless boxes and tests. Loopback only unless the caller explicitly allows otherwise;
 * every API connection must present the per-launch token.
 *
 * Nothing a client sends may stop it (issue #23): a request that cannot be parsed gets a 4xx,
 * a handler that throws gets a 500 or an `internal` error result, and a bad WebSocket frame
 * closes that one socket with the close code RFC 6455 gives it (1002, 1007, 1009).
 */
import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isIPv4 } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  clientMessageSchema,
  type CallResult,
  type ServerMessage,
} from '../../common/api/protocol';
import type { ServedApi } from '../api/serve';

/**
 * The port `npm run web` listens on unless told otherwise. Fixed, because the library lives in
 * the browser's IndexedDB, which belongs to one origin (scheme, host and port): a new port at
 * each launch would open an empty library. 8797 is unassigned at IANA (8794-8799) and not a
 * default of common developer tools.
 */
export const DEFAULT_WEB_PORT = 8797;

export interface WebHostOptions {
  api: ServedApi;
  /** Folder with the built renderer (index.html). */
  staticDir: string;
  /** 127.0.0.1 by default. Anything that is not loopback needs `allowRemote`. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The API token; random per launch when omitted. */
  token?: string;
  /** Explicit consent to bind a non-loopback address. */
  allowRemote?: boolean;
  /** Largest WebSocket message accepted, bytes (packs travel as base64). */
  maxMessageBytes?: number;
  /** Where the host reports its own trouble (a failed accept, a handler that threw); stderr by default. */
  log?: (line: string) => void;
}

export interface WebHost {
  url: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** The CSP the host sends with every page, the same policy as the Electron window. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** True when `host` is a loopback address. */
export function isLoopback(host: string): boolean {
  // Only a literal 127.x.x.x address: a host *name* such as 127.evil.example resolves anywhere.
  return LOOPBACK.has(host) || (isIPv4(host) && host.startsWith('127.'));
}

/**
 * True when a request's Host header names a loopback address (or `localhost`) with `port`.
 * A page on another site that rebinds its own name to 127.0.0.1 still sends that name here.
 */
export function isLoopbackHostHeader(value: string | undefined, port: number): boolean {
  if (!value) return false;
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(value);
  if (!m) return false;
  const name = m[1].startsWith('[') ? m[1].slice(1, -1) : m[1].toLowerCase();
  return (m[2] === undefined ? 80 : Number(m[2])) === port && isLoopback(name);
}

function tokenMatches(given: string | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Parses a request target; null when it is not a URL at all (e.g. `http://[`). */
function parseTarget(target: string | undefined): URL | null {
  try {
    return new URL(target ?? '/', 'http://host');
  } catch {
    return null;
  }
}

/** Answers `status` with a short plain-text body, unless an answer is already under way. */
function answer(res: ServerResponse, status: number, text = STATUS_CODES[status] ?? 'error'): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    Connection: 'close',
  });
  res.end(`${text}\n`);
}

/** Ends a raw socket (a refused upgrade, a request Node could not parse) with `status`. */
function refuseSocket(socket: Duplex, status: number): void {
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      () => socket.destroy(),
    );
  } else {
    socket.destroy();
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Starts the host. Resolves once it listens; `url` already carries the token. */
export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const host = opts.host ?? '127.0.0.1';
  const requestedPort = opts.port ?? 0;
  const log = opts.log ?? ((line: string) => console.error(`simulacra web: ${line}`));
  if (!isLoopback(host) && !opts.allowRemote) {
    throw new Error(
      `refusing to serve the studio on ${host}: it is not a loopback address. Pass --allow-remote to expose it on your network.`,
    );
  }
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const staticRoot = resolve(opts.staticDir);
  await stat(join(staticRoot, 'index.html')).catch(() => {
    throw new Error(`no built renderer in ${staticRoot} (run "npm run build" first)`);
  });
  // Bound to loopback, only a Host naming loopback and our port is ours (DNS rebinding); bound
  // to the network, the machine's names are unknown here and the token alone guards the API.
  let port = requestedPort;
  const hostAllowed = (req: IncomingMessage) =>
    !isLoopback(host) || isLoopbackHostHeader(req.headers.host, port);

  const serveStatic = async (req: IncomingMessage, res: ServerResponse) => {
    if (!hostAllowed(req)) return answer(res, 403, 'forbidden: unexpected Host header');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return answer(res, 405);
    }
    const url = parseTarget(req.url);
    if (!url) return answer(res, 400, 'bad request: malformed URL');
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return answer(res, 400, 'bad request: malformed percent-encoding');
    }
    if (path.includes('\0')) return answer(res, 400, 'bad request: NUL in path');
    if (path === '/' || path === '') path = '/index.html';
    const file = normalize(join(staticRoot, path));
    if (!file.startsWith(staticRoot + sep)) return answer(res, 403, 'forbidden');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return answer(res, 404, 'not found');
    }
    res.writeHead(200, {
      'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    });
    res.end(body);
  };

  const server: Server = createServer((req, res) => {
    // Nothing thrown while answering may escape: an unhandled rejection would stop the host.
    serveStatic(req, res).catch((err: unknown) => {
      log(`request ${JSON.stringify(req.url?.slice(0, 200))} failed: ${messageOf(err)}`);
      try {
        answer(res, 500);
      } catch {
        res.destroy();
      }
    });
  });
  // Requests Node cannot parse (bad request line, headers, framing) and sockets that fail.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || err.code === 'EPIPE') socket.destroy();
    else if (err.code === 'HPE_HEADER_OVERFLOW') refuseSocket(socket, 431);
    else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') refuseSocket(socket, 408);
    else refuseSocket(socket, 400);
  });

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: opts.maxMessageBytes ?? 96 * 1024 * 1024,
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A reset during the handshake (before ws takes the socket over) must not throw.
    socket.on('error', () => socket.destroy());
    try {
      if (!hostAllowed(req)) return refuseSocket(socket, 403);
      const url = parseTarget(req.url);
      const origin = req.headers.origin;
      // A page from another site must not drive the studio even if it learns the port.
      const sameOrigin = !origin || origin === `http://${req.headers.host ?? ''}`;
      if (
        !url ||
        url.pathname !== '/api' ||
        !tokenMatches(url.searchParams.get('token'), token) ||
        !sameOrigin
      ) {
        return refuseSocket(socket, 401);
      }
      wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws, opts.api, log));
    } catch (err) {
      log(`upgrade failed: ${messageOf(err)}`);
      refuseSocket(socket, 500);
    }
  });

  await new Promise<void>((resolveListen, reject) => {
    const onListenError = (err: NodeJS.ErrnoException) =>
      reject(listenError(err, host, requestedPort));
    server.once('error', onListenError);
    server.listen(requestedPort, host, () => {
      server.off('error', onListenError);
      const address = server.address();
      port = typeof address === 'object' && address ? address.port : 0;
      resolveListen();
    });
  });
  // After listening, a server error (e.g. too many open files on accept) is reported, not fatal.
  server.on('error', (err) => log(`server error: ${messageOf(err)}`));
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/?token=${encodeURIComponent(token)}`,
    token,
    port,
    close: () =>
      new Promise<void>((done) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** The error `startWebHost` rejects with when it cannot listen: one line, saying what to do. */
function listenError(err: NodeJS.ErrnoException, host: string, port: number): Error {
  if (err.code === 'EADDRINUSE') {
    return new Error(
      `port ${port} on ${host} is already in use (is the studio already running?). Pass --port N to choose another port.`,
    );
  }
  if (err.code === 'EACCES') {
    return new Error(
      `not allowed to listen on port ${port} on ${host}. Pass --port N to choose another port.`,
    );
  }
  if (err.code === 'EADDRNOTAVAIL') {
    return new Error(`cannot listen on ${host}: no such address on this machine.`);
  }
  return new Error(`cannot listen on ${host}:${port}: ${err.message}`);
}

function serveSocket(ws: WebSocket, api: ServedApi, log: (line: string) => void): void {
  // ws closes a socket that sends a bad frame (1002, 1007, 1009) and then reports it here; with
  // no listener the report would be thrown and stop the host. Only that socket ends.
  ws.on('error', () => {});
  const send = (msg: ServerMessage): boolean => {
    if (ws.readyState !== ws.OPEN) return true;
    let text: string;
    try {
      text = JSON.stringify(msg);
    } catch (err) {
      log(`cannot send a ${msg.kind}: ${messageOf(err)}`);
      return false;
    }
    ws.send(text);
    return true;
  };
  const unsubscribe = api.onEvent((name, payload) => void send({ kind: 'event', name, payload }));
  ws.on('close', unsubscribe);
  const onMessage = async (data: RawData) => {
    let parsed;
    try {
      parsed = clientMessageSchema.safeParse(JSON.parse(String(data)));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) {
      // Without a valid id there is no call to answer; close so a broken client notices.
      ws.close(1003, 'malformed message');
      return;
    }
    const { id, method, input } = parsed.data;
    let result: CallResult;
    try {
      result = await api.dispatch(method, input);
    } catch (err) {
      // dispatch turns handler failures into results; this is a failure of dispatch itself.
      log(`${method} failed: ${messageOf(err)}`);
      result = internalError(`${method} failed: ${messageOf(err)}`);
    }
    if (!send({ kind: 'result', id, ...result })) {
      send({
        kind: 'result',
        id,
        ...internalError(`${method} answered something that cannot be sent`),
      });
    }
  };
  ws.on('message', (data) => {
    onMessage(data).catch((err: unknown) => log(`message handling failed: ${messageOf(err)}`));
  });
}

function internalError(message: string): CallResult {
  return { ok: false, error: { code: 'internal', name: 'Error', message } };
}
