/**
 * Zip bombs that stay inside the limits, so nothing but the limits bounds what they cost:
 * four JSON files of ~60 MiB each (under 64 MiB per file, 240 MiB under the 256 MiB total),
 * from a ~240 KiB pack.
 */
import { rawZip } from './raw-zip';
import { validEntries } from './hostile-packs';

const MiB = 1024 * 1024;

/**
 * The attack run's bomb: a valid pack of the sample scenario whose JSON files (all but the
 * manifest) each end in `padBytes` spaces. JSON allows the padding: the pack is accepted.
 * Building it takes `padBytes` × 4 of memory for a moment.
 */
export function whitespaceBomb(padBytes = 60 * MiB): Buffer {
  const pad = Buffer.alloc(padBytes, 0x20);
  return rawZip(
    validEntries().map((e) =>
      e.name === 'manifest.json'
        ? e
        : { ...e, data: Buffer.concat([Buffer.from(String(e.data)), pad]) },
    ),
  );
}

/**
 * The dense variant: each of those JSON files opens with an unknown key (an extra first item
 * for personas.json) holding `padBytes` of "0,", which JSON.parse turns into an array of
 * padBytes / 2 numbers before the schema can drop it. Refused by the schema, after the parse.
 */
export function denseBomb(padBytes = 60 * MiB): Buffer {
  const zeros = Buffer.alloc(padBytes, '0,');
  return rawZip(
    validEntries().map((e) => {
      if (e.name === 'manifest.json') return e;
      const text = String(e.data).trimStart();
      const head = text.startsWith('[') ? '[[' : '{"junk":[';
      return {
        ...e,
        data: Buffer.concat([Buffer.from(head), zeros, Buffer.from(`0],${text.slice(1)}`)]),
      };
    }),
  );
}
