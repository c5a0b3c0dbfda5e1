/**
 * The web-mode host: serves the built renderer over HTTP and the StudioApi over a WebSocket,
 * for headless boxes and tests. Loopback only unless the caller explicitly allows otherwise;
 * every API connection must present the per-launch token.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { clientMessageSchema, type ServerMessage } from '../../common/api/protocol';
import type { ServedApi } from '../api/serve';

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

function tokenMatches(given: string | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Starts the host. Resolves once it listens; `url` already carries the token. */
export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const host = opts.host ?? '127.0.0.1';
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

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://host');
    let path = decodeURIComponent(url.pathname);
    if (path === '/' || path === '') path = '/index.html';
    const file = normalize(join(staticRoot, path));
    if (!file.startsWith(staticRoot + sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
        'Content-Security-Policy': CONTENT_SECURITY_POLICY,
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-store',
      });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: opts.maxMessageBytes ?? 96 * 1024 * 1024,
  });
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://host');
    const origin = req.headers.origin;
    const hostHeader = req.headers.host ?? '';
    // A page from another site must not drive the studio even if it learns the port.
    const sameOrigin = !origin || origin === `http://${hostHeader}`;
    if (
      url.pathname !== '/api' ||
      !tokenMatches(url.searchParams.get('token'), token) ||
      !sameOrigin
    ) {
      socket.write('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws, opts.api));
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolveListen());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
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

function serveSocket(ws: WebSocket, api: ServedApi): void {
  const send = (msg: ServerMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
  };
  const unsubscribe = api.onEvent((name, payload) => send({ kind: 'event', name, payload }));
  ws.on('close', unsubscribe);
  ws.on('message', async (data) => {
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
    send({ kind: 'result', id, ...(await api.dispatch(method, input)) });
  });
}
