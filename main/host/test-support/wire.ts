/**
 * Raw bytes on the web host's port, for the hostile-input tests (fuzz.test.ts): what a broken
 * or malicious client can put on the wire below what `fetch` and `ws` let you send — malformed
 * request lines and headers, and hand-built WebSocket frames after a real upgrade.
 */
import { connect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';

/**
 * Writes `data` on a fresh TCP connection and resolves with everything the host sent back
 * once it closes the connection, or after `ms` (then the connection is dropped).
 */
export function rawExchange(port: number, data: Buffer | string, ms = 1500): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks));
    };
    const timer = setTimeout(done, ms);
    socket.on('data', (c) => chunks.push(c));
    socket.on('close', done);
    // A reset (the host destroying a socket mid-write) is an answer too.
    socket.on('error', done);
    socket.write(data);
  });
}

/** The status code of the HTTP response at the start of `bytes`, or null when there is none. */
export function statusOf(bytes: Buffer): number | null {
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(bytes.subarray(0, 32).toString('latin1'));
  return m ? Number(m[1]) : null;
}

/** A WebSocket frame as a client could write it, valid or not. */
export interface RawFrame {
  opcode: number;
  payload?: Buffer | string;
  /** FIN bit; true by default. */
  fin?: boolean;
  /** RSV1..3 as the three bits 0b100, 0b010, 0b001. */
  rsv?: number;
  /** Clients must mask; false writes the payload in clear. */
  mask?: boolean;
  /** The length to declare in the header, when it should differ from the payload's. */
  declaredLength?: number | bigint;
}

/** Encodes `f` as bytes (RFC 6455 §5.2), honouring whatever it gets wrong on purpose. */
export function encodeFrame(f: RawFrame): Buffer {
  const payload =
    typeof f.payload === 'string' ? Buffer.from(f.payload) : (f.payload ?? Buffer.alloc(0));
  const declared = BigInt(f.declaredLength ?? payload.length);
  const mask = f.mask ?? true;
  const head: number[] = [((f.fin ?? true) ? 0x80 : 0) | ((f.rsv ?? 0) << 4) | (f.opcode & 0x0f)];
  const maskBit = mask ? 0x80 : 0;
  let ext = Buffer.alloc(0);
  if (declared < 126n) head.push(maskBit | Number(declared));
  else if (declared < 65536n) {
    head.push(maskBit | 126);
    ext = Buffer.alloc(2);
    ext.writeUInt16BE(Number(declared));
  } else {
    head.push(maskBit | 127);
    ext = Buffer.alloc(8);
    ext.writeBigUInt64BE(declared);
  }
  if (!mask) return Buffer.concat([Buffer.from(head), ext, payload]);
  const key = randomBytes(4);
  const masked = Buffer.from(payload);
  for (let i = 0; i < masked.length; i++) masked[i] ^= key[i % 4];
  return Buffer.concat([Buffer.from(head), ext, key, masked]);
}

/** A frame the host sent (servers never mask). */
export interface ServerFrame {
  opcode: number;
  payload: Buffer;
}

/** Splits what the host sent on an upgraded socket into frames; a trailing partial frame is dropped. */
export function decodeFrames(bytes: Buffer): ServerFrame[] {
  const frames: ServerFrame[] = [];
  let at = 0;
  while (at + 2 <= bytes.length) {
    const opcode = bytes[at] & 0x0f;
    let len = bytes[at + 1] & 0x7f;
    let start = at + 2;
    if (len === 126) {
      if (start + 2 > bytes.length) break;
      len = bytes.readUInt16BE(start);
      start += 2;
    } else if (len === 127) {
      if (start + 8 > bytes.length) break;
      len = Number(bytes.readBigUInt64BE(start));
      start += 8;
    }
    if (start + len > bytes.length) break;
    frames.push({ opcode, payload: bytes.subarray(start, start + len) });
    at = start + len;
  }
  return frames;
}

/** The code of the first close frame in `frames`: 1005 when it carries none, null without one. */
export function closeCodeOf(frames: ServerFrame[]): number | null {
  const close = frames.find((f) => f.opcode === 0x8);
  if (!close) return null;
  return close.payload.length >= 2 ? close.payload.readUInt16BE(0) : 1005;
}

/** The upgrade request a browser would send for the API socket (`host` overrides Host). */
export function upgradeRequest(port: number, token: string, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = {
    Host: `127.0.0.1:${port}`,
    Upgrade: 'websocket',
    Connection: 'Upgrade',
    'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
    'Sec-WebSocket-Version': '13',
    ...extra,
  };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return `GET /api?token=${encodeURIComponent(token)} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

/** An API socket upgraded by hand: write raw frames, read what the host answers. */
export interface RawSocket {
  socket: Socket;
  /** Everything received after the 101 response, so far. */
  received(): Buffer;
  /** Resolves once the TCP connection has closed (by either side). */
  closed: Promise<void>;
}

/** Upgrades a raw TCP connection to the API socket; rejects if the host does not answer 101. */
export function openRawSocket(port: number, token: string): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buffered = Buffer.alloc(0);
    let upgraded = false;
    let after = Buffer.alloc(0);
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    socket.on('error', (e) => {
      if (!upgraded) reject(e);
    });
    socket.on('data', (chunk) => {
      if (upgraded) {
        after = Buffer.concat([after, chunk]);
        return;
      }
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      if (statusOf(buffered) !== 101) {
        socket.destroy();
        reject(new Error(`upgrade refused: ${buffered.subarray(0, end).toString('latin1')}`));
        return;
      }
      upgraded = true;
      after = buffered.subarray(end + 4);
      resolve({ socket, received: () => after, closed });
    });
    socket.write(upgradeRequest(port, token));
  });
}

/**
 * Resolves once the host has sent a close frame or closed the connection, or after `ms`:
 * true when it did either. (After a close frame ws waits for the peer's; no need to wait too.)
 */
export function closedOrCloseFrame(raw: RawSocket, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (value: boolean) => {
      clearTimeout(timer);
      raw.socket.off('data', check);
      resolve(value);
    };
    const check = () => {
      // Checked after the socket's own data listener appended the chunk.
      setImmediate(() => {
        if (closeCodeOf(decodeFrames(raw.received())) !== null) finish(true);
      });
    };
    const timer = setTimeout(() => finish(false), ms);
    raw.socket.on('data', check);
    void raw.closed.then(() => finish(true));
    check();
  });
}
