/**
 * Small stroke icons for the editor (16 px, currentColor). Inline SVG rather than Unicode
 * symbols: the fonts shipped on Linux desktops lack several of those glyphs.
 */
import type { ReactNode } from 'react';

const PATHS: Record<string, ReactNode> = {
  brush: <path d="M3 13c2 0 3-1 3-2.5S7.5 8 9 8l4-5-1-1-5 4c0 1.5-1 3-2.5 3S3 10 3 13z" />,
  rect: <rect x="2.5" y="3.5" width="11" height="9" rx="1" />,
  fill: (
    <>
      <path d="M7 2l5.5 5.5-5 5L2 7z" />
      <path d="M13.5 10.5s1.5 1.8 1.5 2.8a1.5 1.5 0 0 1-3 0c0-1 1.5-2.8 1.5-2.8z" />
    </>
  ),
  eraser: (
    <>
      <path d="M9.5 2.5l4 4-6 6.5H4.5L2.5 11z" />
      <path d="M6 6l4 4M7.5 13h6" />
    </>
  ),
  picker: (
    <>
      <path d="M11 2.5l2.5 2.5-1.5 1.5-2.5-2.5z" />
      <path d="M10 5.5L3.5 12v1.5H5L11.5 7" />
    </>
  ),
  hand: (
    <path d="M5 8V3.5a1 1 0 0 1 2 0V7M7 7V2.5a1 1 0 0 1 2 0V7M9 7V3.5a1 1 0 0 1 2 0V8M11 8V5.5a1 1 0 0 1 2 0V10c0 2.5-2 4-4.5 4S4.5 13 3.5 11.5L2 9a1 1 0 0 1 1.6-1.2L5 9.5" />
  ),
  select: <rect x="2.5" y="2.5" width="11" height="11" strokeDasharray="2 2" />,
  undo: <path d="M5 3.5L2 6.5l3 3M2 6.5h7a4 4 0 0 1 0 8H6" />,
  redo: <path d="M11 3.5l3 3-3 3M14 6.5H7a4 4 0 0 0 0 8h3" />,
  eye: (
    <>
      <path d="M1.5 8S4 3.5 8 3.5 14.5 8 14.5 8 12 12.5 8 12.5 1.5 8 1.5 8z" />
      <circle cx="8" cy="8" r="2" />
    </>
  ),
  eyeOff: (
    <path d="M2 2l12 12M6.5 4A6.8 6.8 0 0 1 8 3.5C12 3.5 14.5 8 14.5 8a11 11 0 0 1-2 2.5M4 5.5A10.6 10.6 0 0 0 1.5 8S4 12.5 8 12.5a6 6 0 0 0 2.5-.5" />
  ),
  lock: (
    <>
      <rect x="3.5" y="7" width="9" height="6.5" rx="1" />
      <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" />
    </>
  ),
  unlock: (
    <>
      <rect x="3.5" y="7" width="9" height="6.5" rx="1" />
      <path d="M5.5 7V5a2.5 2.5 0 0 1 4.8-1" />
    </>
  ),
  locate: (
    <>
      <circle cx="8" cy="8" r="4.5" />
      <path d="M8 1v3M8 12v3M1 8h3M12 8h3" />
    </>
  ),
};

export type EditorIconName = keyof typeof PATHS;

export function EditorIcon({ name, size = 16 }: { name: EditorIconName; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.4"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
    >
      {PATHS[name]}
    </svg>
  );
}
