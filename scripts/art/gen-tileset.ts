/**
 * Generates the studio's built-in town tileset: resources/tileset.png (8 × 4 tiles of 32 px)
 * and resources/tileset.json (1-based index → name, category, walkable).
 *
 * Every pixel is drawn here by code from a fixed seed, so the art is the project's own and
 * regenerating it is byte-for-byte reproducible: `npx tsx scripts/art/gen-tileset.ts`.
 * Ground tiles wrap their noise and features at the tile edge so they tile without seams;
 * furniture and plants are drawn on transparency with an outline and a soft shadow, to sit on
 * any floor in a second layer.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Canvas, hash01, hex, mix, shade, valueNoise, withAlpha, type RGBA } from './pixel';
import { TILES, TILE_SIZE, TILESET_COLUMNS, TILESET_ROWS, type TileKey } from './tiles';

/** The seed every texture derives from; change it and all noise changes together. */
export const TILESET_SEED = 20_240_415;

const S = TILE_SIZE;
const OUTLINE = hex('#3b2b2a');

/** Per-tile noise helper: uniform [0,1) from (tile salt, x, y, extra). */
type Noise = (x: number, y: number, salt?: number) => number;

/** Writes a pixel with wrap-around, so features crossing an edge continue on the other side. */
function wplot(t: Canvas, x: number, y: number, c: RGBA): void {
  t.plot(((x % S) + S) % S, ((y % S) + S) % S, c);
}

/** Picks one of `colors` by a value in [0,1) against ascending thresholds. */
function band(v: number, thresholds: number[], colors: RGBA[]): RGBA {
  for (let i = 0; i < thresholds.length; i++) if (v < thresholds[i]) return colors[i];
  return colors[colors.length - 1];
}

// ---------------------------------------------------------------------------------- terrain

const GRASS = [hex('#4f8f3f'), hex('#5e9f47'), hex('#67aa4d'), hex('#70b353'), hex('#86c261')];
const BLADE_DARK = hex('#457f37');

function grassBase(t: Canvas, n: Noise, seed: number): void {
  t.rect(0, 0, S, S, (x, y) => {
    const v =
      valueNoise(x, y, 8, 4, seed) * 0.35 + valueNoise(x, y, 4, 8, seed + 1) * 0.2 + n(x, y) * 0.45;
    return band(v, [0.22, 0.4, 0.6, 0.8], GRASS);
  });
  // Short blades: a dark root pixel and a light tip, scattered.
  for (let i = 0; i < 26; i++) {
    const x = Math.floor(n(i, 0, 11) * S);
    const y = Math.floor(n(i, 1, 11) * S);
    wplot(t, x, y, GRASS[0]);
    wplot(t, x, y - 1, GRASS[4]);
  }
}

function drawGrass(t: Canvas, n: Noise): void {
  grassBase(t, n, 101);
}

function drawGrassTufts(t: Canvas, n: Noise): void {
  grassBase(t, n, 202);
  const tufts = [
    [5, 9],
    [20, 5],
    [13, 22],
    [27, 18],
    [3, 27],
  ];
  for (const [cx, cy] of tufts) {
    // A tuft is a little "W" of blades with a shadow under it.
    for (let dx = -3; dx <= 3; dx++) wplot(t, cx + dx, cy + 1, withAlpha(BLADE_DARK, 130));
    for (const [dx, h] of [
      [-2, 3],
      [-1, 4],
      [0, 5],
      [1, 4],
      [2, 3],
    ]) {
      for (let k = 0; k < h; k++)
        wplot(
          t,
          cx + dx + (k > 2 ? Math.sign(dx) : 0),
          cy - k,
          k === h - 1 ? GRASS[4] : k === 0 ? BLADE_DARK : GRASS[k % 2 === 0 ? 0 : 3],
        );
    }
  }
}

function drawGrassClover(t: Canvas, n: Noise): void {
  grassBase(t, n, 303);
  const petals = [hex('#fbf7ee'), hex('#fff3c4'), hex('#f4d8f0')];
  const spots = [
    [6, 6],
    [22, 9],
    [14, 17],
    [28, 25],
    [4, 24],
    [19, 28],
  ];
  spots.forEach(([cx, cy], i) => {
    if (i % 3 === 2) {
      // Clover: three round leaves.
      for (const [dx, dy] of [
        [-1, 0],
        [1, 0],
        [0, -1],
      ]) {
        wplot(t, cx + dx, cy + dy, GRASS[3]);
      }
      wplot(t, cx, cy, GRASS[1]);
      wplot(t, cx, cy + 1, GRASS[0]);
      return;
    }
    const p = petals[i % petals.length];
    wplot(t, cx - 1, cy, p);
    wplot(t, cx + 1, cy, p);
    wplot(t, cx, cy - 1, p);
    wplot(t, cx, cy + 1, shade(p, 0.85));
    wplot(t, cx, cy, hex('#f2b632'));
    wplot(t, cx + 1, cy + 1, withAlpha(GRASS[0], 170));
  });
}

function drawDirt(t: Canvas, n: Noise): void {
  const cols = [hex('#a87d4e'), hex('#b98b59'), hex('#c69a65'), hex('#d2a872')];
  t.rect(0, 0, S, S, (x, y) => {
    const v = valueNoise(x, y, 8, 4, 404) * 0.6 + n(x, y) * 0.4;
    return band(v, [0.28, 0.5, 0.78], cols);
  });
  for (let i = 0; i < 9; i++) {
    const x = Math.floor(n(i, 0, 7) * S);
    const y = Math.floor(n(i, 1, 7) * S);
    const big = n(i, 2, 7) > 0.6;
    wplot(t, x, y, hex('#8a6a4a'));
    if (big) wplot(t, x + 1, y, hex('#8a6a4a'));
    wplot(t, x, y - 1, hex('#e0c28f'));
    if (big) wplot(t, x + 1, y - 1, hex('#d9b987'));
  }
}

function drawCobble(t: Canvas, n: Noise): void {
  const mortar = hex('#857b6f');
  t.rect(0, 0, S, S, (x, y) => shade(mortar, 0.92 + n(x, y) * 0.16));
  const rows: [number, number[]][] = [
    [0, [9, 7, 8, 8]],
    [5, [8, 9, 7, 8]],
    [2, [7, 8, 9, 8]],
    [6, [8, 7, 8, 9]],
  ];
  rows.forEach(([offset, widths], r) => {
    let x0 = offset;
    widths.forEach((w, k) => {
      const base = mix(hex('#b7afa2'), hex('#cfc8bb'), n(r, k, 55));
      const tint = n(r, k, 56) > 0.7 ? mix(base, hex('#c9b79c'), 0.5) : base;
      for (let dy = 1; dy < 8; dy++) {
        for (let dx = 1; dx < w; dx++) {
          const corner = (dx === 1 || dx === w - 1) && (dy === 1 || dy === 7);
          if (corner) continue;
          let c = shade(tint, 0.95 + n(x0 + dx, r * 8 + dy, 57) * 0.1);
          if (dy === 1 || dx === 1) c = shade(tint, 1.12);
          if (dy === 7 || dx === w - 1) c = shade(tint, 0.8);
          wplot(t, x0 + dx, r * 8 + dy, c);
        }
      }
      x0 += w;
    });
  });
}

function drawWater(t: Canvas, n: Noise): void {
  const cols = [hex('#3a7fc0'), hex('#4590cd'), hex('#4f9cd6'), hex('#5eaadd')];
  t.rect(0, 0, S, S, (x, y) => {
    const v = valueNoise(x + y * 0.5, y, 8, 4, 606) * 0.75 + n(x, y) * 0.1 + 0.08;
    return band(v, [0.33, 0.5, 0.68], cols);
  });
  const waves = [
    [4, 5],
    [19, 3],
    [11, 13],
    [26, 15],
    [3, 22],
    [17, 25],
    [28, 29],
  ];
  for (const [cx, cy] of waves) {
    const light = hex('#9ad6f2');
    for (let dx = -2; dx <= 2; dx++) wplot(t, cx + dx, cy - (Math.abs(dx) === 2 ? 0 : 1), light);
    wplot(t, cx, cy - 1, hex('#d9f3ff'));
    for (let dx = -2; dx <= 2; dx++) wplot(t, cx + dx, cy + 1, withAlpha(hex('#2c6aa8'), 120));
  }
}

function drawSand(t: Canvas, n: Noise): void {
  const cols = [hex('#dcc48b'), hex('#e6d19a'), hex('#eedcaa'), hex('#f5e7bd')];
  t.rect(0, 0, S, S, (x, y) => {
    const v = valueNoise(x, y, 8, 4, 707) * 0.6 + n(x, y) * 0.4;
    return band(v, [0.25, 0.5, 0.8], cols);
  });
  for (let i = 0; i < 10; i++) {
    const x = Math.floor(n(i, 0, 9) * S);
    const y = Math.floor(n(i, 1, 9) * S);
    wplot(t, x, y, n(i, 2, 9) > 0.5 ? hex('#c4a875') : hex('#fff6da'));
  }
}

function drawFlowerBed(t: Canvas, n: Noise): void {
  const soil = [hex('#5b3f2d'), hex('#684a34'), hex('#74543b')];
  t.rect(0, 0, S, S, (x, y) => band(n(x, y), [0.35, 0.75], soil));
  const blooms = [hex('#e8505b'), hex('#f6c945'), hex('#f39ac6'), hex('#fbf7ee'), hex('#9b7be0')];
  // Leafy clumps on a jittered 4 × 4 grid, each topped with a bloom.
  for (let gy = 0; gy < 4; gy++) {
    for (let gx = 0; gx < 4; gx++) {
      const cx = gx * 8 + 4 + Math.floor(n(gx, gy, 1) * 3) - 1 + (gy % 2) * 2;
      const cy = gy * 8 + 4 + Math.floor(n(gx, gy, 2) * 3) - 1;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -3; dx <= 3; dx++) {
          if (dx * dx + dy * dy * 2 > 9) continue;
          wplot(t, cx + dx, cy + dy + 1, dy > 0 ? hex('#3f7a35') : hex('#57953f'));
        }
      }
      const b = blooms[Math.floor(n(gx, gy, 3) * blooms.length)];
      wplot(t, cx, cy - 1, b);
      wplot(t, cx - 1, cy, b);
      wplot(t, cx + 1, cy, b);
      wplot(t, cx, cy + 1, shade(b, 0.8));
      wplot(t, cx, cy, hex('#ffe27a'));
      wplot(t, cx - 1, cy - 1, withAlpha(shade(b, 1.2), 200));
    }
  }
}

// ----------------------------------------------------------------------------------- nature

/** Leafy texture inside a mask: light from the top-left, clumps of highlight and shadow. */
function leaves(
  t: Canvas,
  n: Noise,
  inMask: (x: number, y: number) => number | null,
  palette: RGBA[],
): void {
  t.rect(0, 0, S, S, (x, y) => {
    const depth = inMask(x, y);
    if (depth === null) return null;
    const v = valueNoise(x, y, 4, 8, 909) * 0.55 + n(x, y) * 0.2 + depth * 0.45;
    return band(v, [0.35, 0.55, 0.75, 0.92], palette);
  });
}

function drawHedge(t: Canvas, n: Noise): void {
  const pal = [hex('#2c5e2e'), hex('#376e34'), hex('#45823d'), hex('#5a9a4a'), hex('#76b45c')];
  // Three overlapping bumps along the top make the hedge read as a row of shrubs.
  leaves(
    t,
    n,
    (x, y) => {
      if (y < 3 || y > 29) return null;
      const bump = Math.min(
        ...[5, 16, 27].map((cx) => Math.hypot(x + 0.5 - cx, Math.max(0, 9 - y) * 1.2)),
      );
      if (y < 9 && bump > 6.5) return null;
      const light = 1 - y / 30 + (y < 9 ? (6.5 - bump) / 13 : 0);
      return Math.max(0, Math.min(1, light * 0.6));
    },
    pal,
  );
  t.rect(0, 29, S, 2, withAlpha(hex('#1f3d20'), 140));
}

function drawTree(t: Canvas, n: Noise): void {
  const pal = [hex('#285a2a'), hex('#34703a'), hex('#43853f'), hex('#59a04c'), hex('#7cbd5f')];
  t.ellipse(16.5, 19, 14, 12, withAlpha(hex('#14261a'), 90));
  leaves(
    t,
    n,
    (x, y) => {
      // Canopy: a main disc plus four lobes for a fluffy silhouette.
      const lobes = [
        [16, 14, 12],
        [9, 12, 7],
        [23, 12, 7],
        [10, 20, 7],
        [22, 20, 7],
        [16, 7, 7],
      ];
      let inside = false;
      for (const [cx, cy, r] of lobes)
        if (Math.hypot(x + 0.5 - cx, y + 0.5 - cy) <= r) inside = true;
      if (!inside) return null;
      const d = Math.hypot(x - 11, y - 8) / 22;
      return Math.max(0, 1 - d);
    },
    pal,
  );
  // Highlight blobs on the sunny side.
  for (const [x, y] of [
    [10, 8],
    [15, 5],
    [8, 13],
    [17, 11],
  ]) {
    t.ellipse(x, y, 2, 1.5, withAlpha(hex('#9bd572'), 200));
  }
  t.outline(hex('#1d3b20'));
}

// ------------------------------------------------------------------------------------ floors

function drawWoodFloor(t: Canvas, n: Noise): void {
  const seams = [6, 22, 14, 29];
  for (let r = 0; r < 4; r++) {
    const plank = mix(hex('#b57e4b'), hex('#c99260'), n(r, 0, 31));
    for (let y = r * 8; y < r * 8 + 8; y++) {
      for (let x = 0; x < S; x++) {
        const grain = valueNoise(x * 0.25, y * 3, 2, 8, 1100 + r) * 0.16 + n(x, y) * 0.05;
        let c = shade(plank, 0.9 + grain);
        if (y === r * 8) c = shade(plank, 1.12);
        if (y === r * 8 + 7) c = hex('#7a4f2c');
        t.put(x, y, c);
      }
    }
    const sx = seams[r];
    for (let y = r * 8 + 1; y < r * 8 + 7; y++) {
      t.put(sx, y, hex('#7a4f2c'));
      t.put((sx + 1) % S, y, shade(plank, 1.1));
    }
    // A knot now and then.
    if (n(r, 1, 31) > 0.4) {
      const kx = Math.floor(n(r, 2, 31) * 28) + 2;
      t.put(kx, r * 8 + 4, hex('#8c5c35'));
      t.put(kx + 1, r * 8 + 4, hex('#9b6a40'));
    }
  }
}

function drawTileFloor(t: Canvas, n: Noise): void {
  const a = hex('#f1efe6');
  const b = hex('#cfe4df');
  const grout = hex('#aab6b3');
  t.rect(0, 0, S, S, (x, y) => {
    const lx = x % 8;
    const ly = y % 8;
    if (lx === 7 || ly === 7) return grout;
    const base = (Math.floor(x / 8) + Math.floor(y / 8)) % 2 === 0 ? a : b;
    let c = shade(base, 0.98 + n(x, y) * 0.04);
    if (lx === 0 || ly === 0) c = shade(base, 1.04);
    if (lx === 6 || ly === 6) c = shade(base, 0.94);
    if (lx === 1 && ly === 1) c = hex('#ffffff');
    return c;
  });
}

function carpet(t: Canvas, n: Noise, base: RGBA, pattern: RGBA, accent: RGBA): void {
  t.rect(0, 0, S, S, (x, y) => {
    // A diamond lattice of period 16 with a dot at each centre; period divides 32.
    const u = ((x + 8) % 16) - 8;
    const v = ((y + 8) % 16) - 8;
    const d = Math.abs(u) + Math.abs(v);
    let c = shade(base, 0.95 + n(x, y) * 0.1);
    if (d === 7 || d === 8) c = pattern;
    if (d <= 1) c = accent;
    if ((x + y) % 2 === 0 && d !== 7 && d !== 8 && d > 1) c = shade(c, 0.97);
    return c;
  });
}

function drawCarpetRed(t: Canvas, n: Noise): void {
  carpet(t, n, hex('#b2473f'), hex('#8e3530'), hex('#e7b04f'));
}

function drawCarpetBlue(t: Canvas, n: Noise): void {
  carpet(t, n, hex('#45649c'), hex('#344d7b'), hex('#efe3c2'));
}

// ------------------------------------------------------------------------------------- walls

function drawWallTop(t: Canvas, n: Noise): void {
  // Seen from above: capstones in a 16-px grid (so horizontal and vertical runs both join),
  // each lit from the top-left with a darker lower-right rim.
  const base = hex('#6f625d');
  t.rect(0, 0, S, S, (x, y) => {
    const lx = x % 16;
    const ly = y % 16;
    const block = mix(base, hex('#7d6f68'), n(Math.floor(x / 16), Math.floor(y / 16), 15));
    if (lx === 15 || ly === 15) return hex('#4a3f3c');
    let c = shade(block, 0.95 + n(x, y) * 0.1 + valueNoise(x, y, 8, 4, 1500) * 0.06);
    if (lx === 0 || ly === 0) c = shade(block, 1.2);
    else if (lx === 14 || ly === 14) c = shade(block, 0.82);
    return c;
  });
}

/** Bricks in 8-px courses, staggered, with light mortar and per-brick tint. */
function bricks(t: Canvas, n: Noise, x0: number, y0: number, w: number, h: number): void {
  const mortar = hex('#d8c7ab');
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) {
      const course = Math.floor(y / 8);
      const off = course % 2 === 0 ? 0 : 8;
      const bx = Math.floor((x + off) / 16);
      const lx = (x + off) % 16;
      const ly = y % 8;
      if (ly === 7 || lx === 15) {
        t.put(x, y, shade(mortar, 0.95 + n(x, y) * 0.08));
        continue;
      }
      const tint = mix(hex('#a44f3c'), hex('#c0674d'), n(bx, course, 77));
      let c = shade(tint, 0.94 + n(x, y) * 0.1);
      if (ly === 0) c = shade(tint, 1.12);
      if (ly === 6) c = shade(tint, 0.82);
      t.put(x, y, c);
    }
  }
}

function drawWallBrick(t: Canvas, n: Noise): void {
  bricks(t, n, 0, 0, S, S);
  t.rect(0, 0, S, 2, hex('#6d5c55'));
  t.rect(0, S - 2, S, 2, withAlpha(hex('#3b2b2a'), 90));
}

function drawDoor(t: Canvas, n: Noise): void {
  bricks(t, n, 0, 0, S, S);
  t.rect(0, 0, S, 2, hex('#6d5c55'));
  // Frame, then vertical planks, then knob and threshold.
  t.rect(5, 2, 22, 30, hex('#4f3322'));
  t.rect(7, 4, 18, 28, (x, y) => {
    const plank = Math.floor((x - 7) / 6);
    const base = mix(hex('#9a6235'), hex('#ab7040'), n(plank, 0, 3));
    if ((x - 7) % 6 === 5) return hex('#6e4324');
    return shade(base, 0.95 + valueNoise(x * 4, y * 0.3, 4, 8, 1700) * 0.12);
  });
  t.rect(7, 4, 18, 1, hex('#c48752'));
  t.rect(8, 12, 16, 1, hex('#6e4324'));
  t.rect(8, 24, 16, 1, hex('#6e4324'));
  t.rect(21, 17, 2, 2, hex('#f0cd5b'));
  t.put(21, 17, hex('#fff2a8'));
  t.rect(4, 30, 24, 2, hex('#8f847a'));
}

function drawWindow(t: Canvas, n: Noise): void {
  bricks(t, n, 0, 0, S, S);
  t.rect(0, 0, S, 2, hex('#6d5c55'));
  t.rect(6, 6, 20, 19, hex('#efe6d2'));
  t.rect(8, 8, 16, 15, (x, y) => mix(hex('#8fcbea'), hex('#5c9cc9'), (y - 8) / 15));
  // Reflection streaks and mullions.
  t.line(10, 17, 15, 10, withAlpha(hex('#ffffff'), 170));
  t.line(11, 19, 17, 11, withAlpha(hex('#ffffff'), 100));
  t.rect(15, 8, 2, 15, hex('#efe6d2'));
  t.rect(8, 15, 16, 1, hex('#efe6d2'));
  t.rect(5, 25, 22, 2, hex('#d9cdb3'));
  t.rect(5, 27, 22, 1, hex('#8a7a6a'));
  // Flower box under the sill.
  t.rect(7, 27, 18, 3, hex('#8a5a36'));
  for (let x = 8; x < 24; x += 3)
    t.put(x, 26, [hex('#e8505b'), hex('#f6c945'), hex('#f39ac6')][x % 3]);
}

function roof(t: Canvas, n: Noise, base: RGBA): void {
  // Scalloped shingles in 8-px courses, staggered by half a shingle.
  t.rect(0, 0, S, S, (x, y) => {
    const course = Math.floor(y / 8);
    const off = course % 2 === 0 ? 0 : 4;
    const lx = (x + off) % 8;
    const ly = y % 8;
    const sx = Math.floor((x + off) / 8);
    const tint = shade(base, 0.92 + n(sx, course, 5) * 0.16);
    const edge = Math.abs(lx - 3.5);
    if (ly >= 6 && edge > 7 - ly + 1.5) return shade(base, 0.55);
    if (lx === 7) return shade(base, 0.7);
    let c = shade(tint, 1.08 - ly * 0.045);
    if (ly === 0) c = shade(tint, 1.18);
    return shade(c, 0.97 + n(x, y) * 0.06);
  });
}

function drawRoofRed(t: Canvas, n: Noise): void {
  roof(t, n, hex('#c45b40'));
}

function drawRoofSlate(t: Canvas, n: Noise): void {
  roof(t, n, hex('#5f7391'));
}

// --------------------------------------------------------------------------------- furniture

/** Finishes a transparent-background object: outline plus a soft shadow to the lower right. */
function finish(t: Canvas): void {
  t.outline(OUTLINE);
  t.dropShadow(1, 2, 70);
}

function drawFence(t: Canvas): void {
  const wood = hex('#d5a66b');
  const dark = hex('#9c6c3f');
  // Two rails that run edge to edge, and two posts per tile.
  for (const y of [12, 20]) {
    t.rect(0, y, S, 3, wood);
    t.rect(0, y, S, 1, shade(wood, 1.12));
    t.rect(0, y + 2, S, 1, dark);
  }
  for (const x of [6, 22]) {
    t.rect(x, 6, 5, 20, wood);
    t.rect(x, 6, 1, 20, shade(wood, 1.12));
    t.rect(x + 4, 6, 1, 20, dark);
    t.rect(x + 1, 5, 3, 1, wood);
    t.rect(x, 26, 5, 1, dark);
  }
  // Outline only top and bottom, so neighbouring fence tiles join up.
  const copy = new Canvas(S, S);
  copy.draw(t, 0, 0);
  copy.outline(OUTLINE);
  for (let y = 0; y < S; y++) {
    for (let x = 1; x < S - 1; x++) t.put(x, y, copy.get(x, y));
  }
  for (let y = 0; y < S; y++) {
    for (const x of [0, S - 1])
      if (
        t.get(x, y)[3] === 0 &&
        copy.get(x, y)[3] > 0 &&
        (y === 11 || y === 15 || y === 19 || y === 23)
      )
        t.put(x, y, OUTLINE);
  }
  t.rect(0, 27, S, 1, withAlpha(hex('#14261a'), 60));
}

function drawBench(t: Canvas): void {
  const wood = hex('#c58b52');
  // Back rest, then three seat slats, then iron arms.
  t.rect(3, 7, 26, 4, shade(wood, 0.88));
  t.rect(3, 7, 26, 1, shade(wood, 1.05));
  for (let i = 0; i < 3; i++) {
    const y = 13 + i * 4;
    t.rect(3, y, 26, 3, wood);
    t.rect(3, y, 26, 1, shade(wood, 1.15));
  }
  t.rect(2, 8, 2, 17, hex('#4a4a55'));
  t.rect(28, 8, 2, 17, hex('#4a4a55'));
  t.rect(2, 8, 1, 17, hex('#6f6f7c'));
  finish(t);
}

function drawBed(t: Canvas, n: Noise): void {
  t.roundRect(5, 2, 22, 28, 1, hex('#8a5a36'));
  t.rect(6, 3, 20, 3, hex('#a8723f'));
  t.rect(7, 6, 18, 23, hex('#f4efe4'));
  // Pillow.
  t.roundRect(9, 7, 14, 6, 2, hex('#ffffff'));
  t.rect(10, 11, 12, 1, hex('#dcd6ca'));
  // Quilt with a patchwork pattern and a folded edge.
  t.rect(7, 15, 18, 14, (x, y) => {
    const patch = (Math.floor((x - 7) / 6) + Math.floor((y - 15) / 5)) % 3;
    const cols = [hex('#6d9bd1'), hex('#e4a4b6'), hex('#f3d9a0')];
    const c = cols[patch];
    if ((x - 7) % 6 === 0 || (y - 15) % 5 === 0) return shade(c, 0.85);
    return shade(c, 0.97 + n(x, y) * 0.06);
  });
  t.rect(7, 15, 18, 2, hex('#fbfaf5'));
  t.rect(7, 17, 18, 1, hex('#cfc9bd'));
  finish(t);
}

function drawTable(t: Canvas, n: Noise): void {
  // A square wooden table from above, planks running across, with one place setting.
  const top = hex('#bf8a52');
  t.rect(5, 26, 3, 3, hex('#6e4324'));
  t.rect(24, 26, 3, 3, hex('#6e4324'));
  t.roundRect(3, 4, 26, 23, 2, (x, y) => {
    const plank = Math.floor((y - 4) / 6);
    const base = shade(top, 0.96 + n(plank, 0, 41) * 0.08);
    if ((y - 4) % 6 === 5) return shade(top, 0.8);
    return shade(base, 0.95 + valueNoise(x * 0.3, y * 2, 2, 8, 2400) * 0.1 + n(x, y) * 0.03);
  });
  t.rect(4, 4, 24, 1, shade(top, 1.18));
  t.rect(3, 25, 26, 2, shade(top, 0.7));
  // Plate with a slice of pie, and a cup of tea.
  t.ellipse(13, 14, 5, 4.5, hex('#fbfaf4'));
  t.ellipse(13, 14, 3.5, 3, hex('#ebe6da'));
  t.rect(11, 13, 4, 3, hex('#e2a45a'));
  t.rect(11, 13, 4, 1, hex('#c0473f'));
  t.ellipse(22.5, 10.5, 2.5, 2.5, hex('#ffffff'));
  t.ellipse(22.5, 10.5, 1.5, 1.5, hex('#8a5a36'));
  t.put(25, 10, hex('#ffffff'));
  finish(t);
}

function drawDesk(t: Canvas, n: Noise): void {
  const top = hex('#8f5f3a');
  t.rect(2, 6, 28, 18, (x, y) =>
    shade(top, 0.93 + valueNoise(x * 0.3, y * 2, 2, 8, 2500) * 0.14 + n(x, y) * 0.03),
  );
  t.rect(2, 6, 28, 1, shade(top, 1.2));
  // Drawers along the front edge.
  t.rect(2, 22, 28, 6, shade(top, 0.7));
  t.rect(5, 24, 8, 2, shade(top, 0.55));
  t.rect(19, 24, 8, 2, shade(top, 0.55));
  t.put(9, 24, hex('#e6c25a'));
  t.put(23, 24, hex('#e6c25a'));
  // Papers, an open book and a pencil.
  t.rect(5, 9, 8, 10, hex('#fbf8ee'));
  t.rect(6, 11, 6, 1, hex('#b8b2a6'));
  t.rect(6, 13, 5, 1, hex('#b8b2a6'));
  t.rect(6, 15, 6, 1, hex('#b8b2a6'));
  t.rect(16, 10, 11, 8, hex('#f4ecd8'));
  t.rect(21, 10, 1, 8, hex('#c8b99a'));
  t.rect(16, 18, 11, 1, hex('#7a3a3a'));
  t.line(14, 20, 19, 19, hex('#f2c14e'));
  finish(t);
}

function drawChair(t: Canvas): void {
  const wood = hex('#a46d3f');
  t.rect(8, 5, 16, 5, shade(wood, 0.85));
  t.rect(8, 5, 16, 1, shade(wood, 1.1));
  t.rect(9, 11, 14, 13, wood);
  t.rect(9, 11, 14, 1, shade(wood, 1.15));
  t.rect(11, 13, 10, 8, hex('#cf6b5a'));
  t.rect(11, 13, 10, 1, hex('#e58a78'));
  t.rect(9, 24, 2, 3, shade(wood, 0.6));
  t.rect(21, 24, 2, 3, shade(wood, 0.6));
  finish(t);
}

function drawStove(t: Canvas): void {
  t.rect(3, 3, 26, 26, hex('#e9e6df'));
  t.rect(3, 3, 26, 1, hex('#ffffff'));
  t.rect(3, 22, 26, 7, hex('#c9c4ba'));
  t.rect(7, 24, 18, 1, hex('#8d877e'));
  for (const [cx, cy, r] of [
    [10, 10, 4.5],
    [22, 10, 4.5],
    [10, 18, 3.5],
    [22, 18, 3.5],
  ]) {
    t.ellipse(cx, cy, r, r, hex('#3d3a40'));
    t.ellipse(cx, cy, r - 1.5, r - 1.5, hex('#5a5660'));
    t.ellipse(cx, cy, 1, 1, hex('#2a272c'));
  }
  for (const x of [8, 13, 19, 24]) t.rect(x, 26, 2, 2, hex('#3d3a40'));
  finish(t);
}

function drawBookshelf(t: Canvas, n: Noise): void {
  const wood = hex('#7a4b2b');
  t.rect(2, 1, 28, 29, wood);
  t.rect(2, 1, 28, 2, shade(wood, 1.25));
  const spines = [
    hex('#c0473f'),
    hex('#3f6fb0'),
    hex('#e0b24a'),
    hex('#4f9a5a'),
    hex('#8a5aa8'),
    hex('#e6ddc9'),
    hex('#d97a3a'),
  ];
  for (let shelf = 0; shelf < 3; shelf++) {
    const y0 = 4 + shelf * 9;
    t.rect(4, y0, 24, 7, hex('#3d2415'));
    let x = 4;
    let k = 0;
    while (x < 27) {
      const w = 2 + Math.floor(n(shelf, k, 1) * 2);
      const h = 5 + Math.floor(n(shelf, k, 2) * 2);
      if (n(shelf, k, 4) > 0.88) {
        x += w;
        k++;
        continue;
      }
      const c = spines[Math.floor(n(shelf, k, 3) * spines.length)];
      const ww = Math.min(w, 28 - x);
      t.rect(x, y0 + 7 - h, ww, h, c);
      t.rect(x, y0 + 7 - h, 1, h, shade(c, 1.2));
      t.rect(x, y0 + 7 - h + 1, ww, 1, shade(c, 0.75));
      x += w;
      k++;
    }
    t.rect(2, y0 + 7, 28, 2, shade(wood, 1.1));
  }
  finish(t);
}

function drawCounter(t: Canvas, n: Noise): void {
  // Full width so a row of counters joins into one long counter.
  const front = hex('#8a5a36');
  t.rect(0, 14, S, 14, (x, y) => {
    const panel = x % 16 === 0 || x % 16 === 15;
    return panel
      ? shade(front, 0.75)
      : shade(front, 0.95 + valueNoise(x * 4, y * 0.4, 4, 8, 2900) * 0.12);
  });
  t.rect(0, 4, S, 11, (x, y) =>
    shade(hex('#ece6da'), 0.96 + n(x, y) * 0.06 + valueNoise(x, y, 8, 4, 2901) * 0.05),
  );
  t.rect(0, 4, S, 1, hex('#ffffff'));
  t.rect(0, 14, S, 1, hex('#b4ab9b'));
  t.rect(0, 3, S, 1, OUTLINE);
  t.rect(0, 28, S, 1, OUTLINE);
  t.rect(0, 29, S, 2, withAlpha(hex('#14101a'), 70));
  // A few grain flecks in the stone, no props, so long counters stay calm.
  for (let i = 0; i < 4; i++)
    t.put(Math.floor(n(i, 0, 8) * S), 6 + Math.floor(n(i, 1, 8) * 7), hex('#cfc6b6'));
}

function drawSofa(t: Canvas): void {
  const fabric = hex('#5e9e8e');
  t.roundRect(2, 4, 28, 8, 2, shade(fabric, 0.82));
  t.rect(3, 5, 26, 1, shade(fabric, 0.95));
  t.roundRect(2, 10, 5, 17, 1, shade(fabric, 0.88));
  t.roundRect(25, 10, 5, 17, 1, shade(fabric, 0.88));
  t.rect(7, 11, 18, 15, fabric);
  t.rect(16, 11, 1, 15, shade(fabric, 0.75));
  t.rect(7, 11, 18, 1, shade(fabric, 1.15));
  // A cushion.
  t.roundRect(9, 12, 6, 5, 1, hex('#f0c15a'));
  t.put(10, 13, hex('#f8da8c'));
  finish(t);
}

function drawLamp(t: Canvas): void {
  // A street lamp from above: a warm glow on the ground, the post, and the lantern cap.
  for (let r = 15; r >= 6; r--)
    t.ellipse(16, 17, r, r * 0.85, withAlpha(hex('#ffe9a0'), 6 + (15 - r) * 3));
  t.rect(15, 16, 3, 12, hex('#3c3f4a'));
  t.rect(15, 16, 1, 12, hex('#5d6170'));
  t.rect(13, 27, 7, 2, hex('#3c3f4a'));
  t.roundRect(11, 6, 11, 11, 2, hex('#3c3f4a'));
  t.rect(13, 8, 7, 7, hex('#fff3b8'));
  t.rect(13, 8, 7, 2, hex('#ffffff'));
  t.rect(16, 8, 1, 7, hex('#3c3f4a'));
  t.rect(12, 4, 9, 2, hex('#2b2d36'));
  t.outline(OUTLINE, 200);
}

function drawPlantPot(t: Canvas, n: Noise): void {
  t.ellipse(16, 24, 7, 5, hex('#c4683f'));
  t.ellipse(16, 22.5, 7, 4, hex('#d97e52'));
  t.ellipse(16, 22.5, 5.5, 2.8, hex('#5b3f2d'));
  const leafCol = [hex('#3f7a35'), hex('#57953f'), hex('#74b352')];
  const leavesAt = [
    [16, 10, 0],
    [9, 14, 1],
    [23, 14, 2],
    [12, 18, 3],
    [20, 18, 4],
    [16, 15, 5],
  ];
  for (const [cx, cy, i] of leavesAt) {
    t.ellipse(
      cx,
      cy,
      4,
      3,
      (x, y) => leafCol[Math.min(2, Math.floor(n(x, y, i) * 1.6 + (y < cy ? 1 : 0)))],
    );
    t.line(cx, cy, 16, 21, hex('#3f7a35'));
  }
  finish(t);
}

type Painter = (t: Canvas, n: Noise) => void;

const PAINTERS: Record<TileKey, Painter> = {
  grass: drawGrass,
  grassTufts: drawGrassTufts,
  grassClover: drawGrassClover,
  dirt: drawDirt,
  cobble: drawCobble,
  water: drawWater,
  sand: drawSand,
  flowerBed: drawFlowerBed,
  hedge: drawHedge,
  tree: drawTree,
  woodFloor: drawWoodFloor,
  tileFloor: drawTileFloor,
  carpetRed: drawCarpetRed,
  carpetBlue: drawCarpetBlue,
  wallTop: drawWallTop,
  wallBrick: drawWallBrick,
  door: drawDoor,
  window: drawWindow,
  roofRed: drawRoofRed,
  roofSlate: drawRoofSlate,
  fence: drawFence,
  bench: drawBench,
  bed: drawBed,
  table: drawTable,
  desk: drawDesk,
  chair: drawChair,
  stove: drawStove,
  bookshelf: drawBookshelf,
  counter: drawCounter,
  sofa: drawSofa,
  lamp: drawLamp,
  plantPot: drawPlantPot,
};

/** Draws the whole sheet (8 × 4 tiles) and returns it. Pure and deterministic. */
export function renderTileset(): Canvas {
  const sheet = new Canvas(S * TILESET_COLUMNS, S * TILESET_ROWS);
  for (const tile of TILES) {
    const t = new Canvas(S, S);
    const n: Noise = (x, y, salt = 0) => hash01(TILESET_SEED, tile.index, salt, x, y);
    PAINTERS[tile.key as TileKey](t, n);
    const col = (tile.index - 1) % TILESET_COLUMNS;
    const row = Math.floor((tile.index - 1) / TILESET_COLUMNS);
    sheet.draw(t, col * S, row * S);
  }
  return sheet;
}

/** The JSON written to resources/tileset.json: 1-based index → palette info. */
export function tilesetJson(): string {
  const tiles: Record<string, { name: string; category: string; walkable: boolean }> = {};
  for (const t of TILES)
    tiles[String(t.index)] = { name: t.name, category: t.category, walkable: t.walkable };
  const doc = {
    image: 'tileset.png',
    tileWidth: S,
    tileHeight: S,
    columns: TILESET_COLUMNS,
    tileCount: TILES.length,
    note: 'Keys are 1-based layer indices: layer value n paints sheet tile n - 1; 0 is empty.',
    tiles,
  };
  // Pretty-printed JSON.stringify output is already what Prettier would write.
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function main(): void {
  const root = fileURLToPath(new URL('../../resources/', import.meta.url));
  renderTileset().save(`${root}tileset.png`);
  writeFileSync(`${root}tileset.json`, tilesetJson());
  console.log(`wrote ${root}tileset.png and tileset.json (${TILES.length} tiles)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
