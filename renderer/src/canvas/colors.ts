/** Colours for zones and placeholder tiles, derived from ids so they are stable across runs. */

/** The golden angle spreads consecutive ids around the hue wheel. */
const GOLDEN_ANGLE_DEG = 137.508;

/** Hue (degrees) for zone id `zone`. */
export function zoneHue(zone: number): number {
  return (zone * GOLDEN_ANGLE_DEG + 200) % 360;
}

/** CSS colour of a zone at the given alpha. */
export function zoneColor(zone: number, alpha = 1): string {
  return `hsla(${zoneHue(zone).toFixed(1)}, 70%, 62%, ${alpha})`;
}

/** RGBA bytes of a zone's tint (for ImageData writes). */
export function zoneRgb(zone: number): [number, number, number] {
  return hslToRgb(zoneHue(zone) / 360, 0.7, 0.62);
}

/**
 * Fill for tile index `tile` (1-based) when the tileset image is unavailable: muted,
 * distinct colours so the map's structure still reads.
 */
export function placeholderTileColor(tile: number): string {
  return `hsl(${((tile * 47) % 360).toFixed(0)}, 32%, ${38 + (tile % 3) * 6}%)`;
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (u < 1 / 6) return p + (q - p) * 6 * u;
    if (u < 1 / 2) return q;
    if (u < 2 / 3) return p + (q - p) * (2 / 3 - u) * 6;
    return p;
  };
  return [channel(h + 1 / 3), channel(h), channel(h - 1 / 3)].map((v) => Math.round(v * 255)) as [
    number,
    number,
    number,
  ];
}
