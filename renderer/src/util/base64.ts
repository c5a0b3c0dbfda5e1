/** Base64 <-> bytes in the browser (packs cross the StudioApi as base64 text). */

/** Bytes per String.fromCharCode call: keeps the argument list far below engine limits. */
const CHUNK_BYTES = 0x8000;

/** Encodes bytes as standard base64. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK_BYTES) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK_BYTES));
  }
  return btoa(binary);
}

/** Decodes standard base64 into bytes. */
export function base64ToBytes(data: string): Uint8Array<ArrayBuffer> {
  const binary = atob(data);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
