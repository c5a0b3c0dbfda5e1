import { describe, expect, it } from 'vitest';
import { formatChord, matchesChord, parseChord } from './chord';

describe('key chords', () => {
  it('tells Ctrl+Z from Ctrl+Shift+Z and from a bare Z, and takes ⌘ for Ctrl', () => {
    expect(matchesChord('Ctrl+Z', { key: 'z', ctrl: true })).toBe(true);
    expect(matchesChord('Ctrl+Z', { key: 'Z', ctrl: true, shift: true })).toBe(false);
    expect(matchesChord('Ctrl+Shift+Z', { key: 'Z', ctrl: true, shift: true })).toBe(true);
    expect(matchesChord('Ctrl+Z', { key: 'z' })).toBe(false);
    expect(matchesChord('Z', { key: 'z', ctrl: true })).toBe(false);
    expect(matchesChord('Ctrl+Z', { key: 'z', ctrl: true, alt: true })).toBe(false);
  });

  it('matches letters in either case but not with Shift held', () => {
    expect(matchesChord('B', { key: 'b' })).toBe(true);
    expect(matchesChord('B', { key: 'B', shift: true })).toBe(false);
  });

  it('lets punctuation carry its own Shift ("?" is Shift+/ on most layouts)', () => {
    expect(matchesChord('?', { key: '?', shift: true })).toBe(true);
    expect(matchesChord('/', { key: '/' })).toBe(true);
    expect(matchesChord('/', { key: '?', shift: true })).toBe(false);
    expect(matchesChord('Ctrl+,', { key: ',', ctrl: true })).toBe(true);
  });

  it('names Space, Escape and the arrows', () => {
    expect(matchesChord('Space', { key: ' ' })).toBe(true);
    expect(matchesChord('Escape', { key: 'Escape' })).toBe(true);
    expect(matchesChord('ArrowLeft', { key: 'ArrowLeft' })).toBe(true);
    expect(parseChord('Ctrl++').key).toBe('+');
  });

  it('formats chords the way a person reads them', () => {
    expect(formatChord('Ctrl+Shift+Z')).toBe('Ctrl+Shift+Z');
    expect(formatChord('b')).toBe('B');
    expect(formatChord('Space')).toBe('Space');
    expect(formatChord('Escape')).toBe('Esc');
    expect(formatChord('ArrowUp')).toBe('↑');
  });

  it('refuses a modifier it does not know, so a typo cannot silently never match', () => {
    expect(() => parseChord('Cmd+K')).toThrow(/Unknown modifier "Cmd"/);
  });
});
