/**
 * Hostile and broken packs, each built here byte by byte, with what the rejection must say.
 * Shared by the library tests (readPack/unpackPack) and the CLI tests (`simulacra validate`).
 */
import { splitScenario } from '../../../common/scenario/split';
import { rawZip, type RawZipEntry } from './raw-zip';
import { sampleScenario } from './sample-scenario';

/** One hostile pack and a pattern its rejection message must match. */
export interface HostilePack {
  name: string;
  bytes: () => Buffer;
  expect: RegExp;
}

const MiB = 1024 * 1024;

/** The entries of a valid pack of the sample scenario, optionally with some files changed. */
export function validEntries(
  change: (files: Record<string, string>) => void = () => {},
): RawZipEntry[] {
  const files: Record<string, string> = { ...splitScenario(sampleScenario()) };
  change(files);
  return Object.entries(files).map(([name, data]) => ({ name, data }));
}

const withEvil = (evil: RawZipEntry) => () => rawZip([...validEntries(), evil]);
const editJson =
  (file: string, edit: (doc: Record<string, unknown>) => void) =>
  (files: Record<string, string>) => {
    const doc = JSON.parse(files[file]) as Record<string, unknown>;
    edit(doc);
    files[file] = JSON.stringify(doc);
  };

export const HOSTILE_PACKS: HostilePack[] = [
  {
    name: 'not a zip',
    bytes: () => Buffer.from('this is not a zip archive at all, just text'),
    expect: /is not a readable zip archive/,
  },
  {
    name: 'truncated zip',
    bytes: () => {
      const whole = rawZip(validEntries());
      return whole.subarray(0, whole.length - 30);
    },
    expect: /not a readable zip archive|corrupt central directory/,
  },
  {
    name: 'parent traversal',
    bytes: withEvil({ name: '../evil.txt', data: 'pwned' }),
    expect: /\.\.\/evil\.txt: climbs out of the pack/,
  },
  {
    name: 'nested traversal',
    bytes: withEvil({ name: 'assets/../../evil.txt', data: 'pwned' }),
    expect: /assets\/\.\.\/\.\.\/evil\.txt: climbs out of the pack/,
  },
  {
    name: 'absolute path',
    bytes: withEvil({ name: '/tmp/evil.txt', data: 'pwned' }),
    expect: /\/tmp\/evil\.txt: is an absolute path/,
  },
  {
    name: 'drive letter',
    bytes: withEvil({ name: 'C:/evil.txt', data: 'pwned' }),
    expect: /C:\/evil\.txt: starts with a drive letter/,
  },
  {
    name: 'backslash traversal',
    bytes: withEvil({ name: '..\\evil.txt', data: 'pwned' }),
    expect: /evil\.txt: contains a backslash/,
  },
  {
    name: 'symlink entry',
    bytes: withEvil({
      name: 'assets/tileset.png',
      data: '/etc/passwd',
      method: 0,
      unixMode: 0o120777,
    }),
    expect: /assets\/tileset\.png: is a symbolic link/,
  },
  {
    name: 'duplicate entry',
    bytes: () => rawZip([...validEntries(), { name: 'map.json', data: '{}' }]),
    expect: /map\.json: appears twice in the pack/,
  },
  {
    name: 'case-insensitive duplicate',
    bytes: () => rawZip([...validEntries(), { name: 'Map.JSON', data: '{}' }]),
    expect: /Map\.JSON: collides with "map\.json"/,
  },
  {
    name: 'too many entries',
    bytes: () =>
      rawZip([
        ...validEntries(),
        ...Array.from({ length: 2000 }, (_, i) => ({ name: `assets/f${i}.bin`, data: 'x' })),
      ]),
    expect: /holds 2005 entries \(expected at most 2000\)/,
  },
  {
    name: 'declared size over the JSON limit',
    bytes: () =>
      rawZip(
        validEntries().map((e) => (e.name === 'map.json' ? { ...e, declaredSize: 65 * MiB } : e)),
      ),
    expect: /map\.json: declares 65 MiB uncompressed \(expected at most 64 MiB for a JSON file\)/,
  },
  {
    // Each within the 64 MiB per-file limit, but parsing 2 × 60 MiB of JSON numbers would cost
    // gigabytes: the JSON total is bounded before anything is inflated.
    name: 'declared JSON total over the limit',
    bytes: () =>
      rawZip(
        validEntries().map((e) =>
          e.name === 'map.json' || e.name === 'tree.json' ? { ...e, declaredSize: 60 * MiB } : e,
        ),
      ),
    expect:
      /declares 120 MiB of JSON in all \(expected at most 96 MiB for all JSON files together\)/,
  },
  {
    name: 'declared total over the limit',
    bytes: withEvilMany(5, 60 * MiB),
    expect: /declares 300 MiB uncompressed in all \(expected at most 256 MiB\)/,
  },
  {
    name: 'zip bomb with a lying size',
    bytes: () =>
      rawZip([
        ...validEntries(),
        { name: 'assets/bomb.bin', data: Buffer.alloc(4 * MiB), declaredSize: 100 },
      ]),
    expect: /assets\/bomb\.bin: inflates to more than the 100 bytes its header declares/,
  },
  {
    name: 'encrypted entry',
    bytes: withEvil({ name: 'assets/secret.bin', data: 'x', flags: 0x801 }),
    expect: /assets\/secret\.bin: is encrypted/,
  },
  {
    name: 'unsupported compression',
    bytes: withEvil({ name: 'assets/x.bin', data: 'x', method: 12 }),
    expect: /assets\/x\.bin: uses compression method 12/,
  },
  {
    name: 'checksum mismatch',
    bytes: () =>
      rawZip(validEntries().map((e) => (e.name === 'tree.json' ? { ...e, crc: 0x12345678 } : e))),
    expect: /tree\.json: fails its CRC-32 check/,
  },
  {
    name: 'non-UTF-8 entry name',
    bytes: withEvil({ name: Buffer.from([0x61, 0xff, 0xfe, 0x2e, 0x62]), data: 'x' }),
    expect: /is not valid UTF-8/,
  },
  {
    name: 'missing manifest',
    bytes: () => rawZip(validEntries().filter((e) => e.name !== 'manifest.json')),
    expect: /manifest\.json: is missing/,
  },
  {
    name: 'invalid JSON',
    bytes: () =>
      rawZip(
        validEntries(
          (f) => (f['map.json'] = f['map.json'].replace('"height": 8,', '"height": 8,,')),
        ),
      ),
    expect: /map\.json: invalid JSON at line 3 column 15/,
  },
  {
    name: 'schema violation',
    bytes: () =>
      rawZip(
        validEntries(
          editJson('personas.json', (d) => ((d as unknown as { age: number }[])[0].age = -4)),
        ),
      ),
    expect: /personas\.json → personas\[0\]\.age: /,
  },
  {
    name: 'dangling living area',
    bytes: () =>
      rawZip(
        validEntries(
          editJson(
            'personas.json',
            (d) =>
              ((d as unknown as { livingArea: string }[])[0].livingArea =
                'Oak Hollow:Nowhere:attic'),
          ),
        ),
      ),
    expect:
      /personas\.json → personas\[0\]\.livingArea: expected the address of an arena in the tree/,
  },
  {
    name: 'future pack format',
    bytes: () => rawZip(validEntries(editJson('manifest.json', (d) => (d.formatVersion = 2)))),
    expect:
      /manifest\.json → formatVersion: this pack was written by a newer Simulacra Studio \(pack format 2\)/,
  },
  {
    name: 'future schema version',
    bytes: () => rawZip(validEntries(editJson('manifest.json', (d) => (d.schemaVersion = 99)))),
    expect:
      /manifest\.json → schemaVersion: this scenario was saved by a newer Simulacra Studio \(format 99\)/,
  },
  {
    name: 'not our manifest',
    bytes: () =>
      rawZip(validEntries(editJson('manifest.json', (d) => (d.format = 'something-else')))),
    expect: /manifest\.json → format: expected "simulacra-pack", got "something-else"/,
  },
  {
    name: 'missing referenced asset',
    bytes: () =>
      rawZip(
        validEntries(
          editJson(
            'map.json',
            (d) => ((d.tileset as { image: string }).image = 'assets/tiles.png'),
          ),
        ),
      ),
    expect: /map\.json → map\.tileset\.image: expected the pack to contain "assets\/tiles\.png"/,
  },
];

/** `count` assets each declaring `size` bytes (but holding one): over the total, under each. */
function withEvilMany(count: number, size: number): () => Buffer {
  return () =>
    rawZip([
      ...validEntries(),
      ...Array.from({ length: count }, (_, i) => ({
        name: `assets/big${i}.bin`,
        data: 'x',
        method: 8,
        declaredSize: size,
      })),
    ]);
}
