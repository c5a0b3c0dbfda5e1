import { describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import { isPackPath, packPathsFromArgv } from './argv';

describe('packPathsFromArgv', () => {
  const cwd = resolve('/home/ana/towns');

  it('finds a double-clicked pack after the executable and the app path', () => {
    const argv = ['/opt/Simulacra/simulacra', '/opt/Simulacra/out/main/index.js', 'willow.simpack'];
    expect(packPathsFromArgv(argv, cwd)).toEqual([join(cwd, 'willow.simpack')]);
  });

  it('keeps absolute paths, reads file URLs, ignores flags, other files and repeats', () => {
    const abs = resolve('/data/Harrow Quay.SIMPACK');
    const url = pathToFileURL(resolve('/data/ünïcode town.simpack')).href;
    const argv = [
      'electron',
      '--no-sandbox',
      '--flag=x.simpack',
      abs,
      url,
      'notes.txt',
      'https://example.com/evil.simpack',
      abs,
    ];
    expect(packPathsFromArgv(argv, cwd)).toEqual([abs, resolve('/data/ünïcode town.simpack')]);
  });

  it('finds nothing in a plain launch', () => {
    expect(packPathsFromArgv(['electron', '.'], cwd)).toEqual([]);
  });

  it('isPackPath is by extension, case-insensitive', () => {
    expect(isPackPath('a.SimPack')).toBe(true);
    expect(isPackPath('a.simpack.zip')).toBe(false);
    expect(isPackPath('-a.simpack')).toBe(false);
  });
});
