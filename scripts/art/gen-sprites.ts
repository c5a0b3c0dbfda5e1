/**
 * Generates the studio's villager sprites: resources/sprites.png (one row of eight 32 × 32
 * front-facing chibi townsfolk) and resources/sprites.json (name → frame rectangle).
 *
 * Drawn entirely by code from fixed parameters, so the art is the project's own and
 * regenerating it is reproducible: `npx tsx scripts/art/gen-sprites.ts`.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Canvas, hex, shade, withAlpha } from './pixel';

/** Pixel size of one sprite frame. */
export const SPRITE_SIZE = 32;

type HairStyle = 'short' | 'long' | 'curly' | 'ponytail' | 'bun' | 'cap' | 'bob' | 'beard';

/** How one villager looks. */
interface Look {
  skin: string;
  hair: string;
  style: HairStyle;
  shirt: string;
  legs: string;
  /** An apron, scarf or cardigan colour drawn over the shirt, if any. */
  accent?: string;
  accentKind?: 'apron' | 'scarf' | 'cardigan';
}

/** The eight villagers, in sheet order (villager-1 first). */
const LOOKS: Look[] = [
  { skin: '#f2c9a0', hair: '#6b4226', style: 'short', shirt: '#5fa55a', legs: '#3f5f8f' },
  { skin: '#c98d5e', hair: '#2a1f1d', style: 'long', shirt: '#d2544b', legs: '#5a3b4a' },
  {
    skin: '#8a5a3b',
    hair: '#1e1716',
    style: 'curly',
    shirt: '#f0c04a',
    legs: '#6b4a34',
    accent: '#3f7fb5',
    accentKind: 'scarf',
  },
  { skin: '#f5d3b3', hair: '#e8c35a', style: 'ponytail', shirt: '#5a8fd6', legs: '#34435f' },
  {
    skin: '#e0b08a',
    hair: '#b9b4b0',
    style: 'bun',
    shirt: '#f1ead8',
    legs: '#4a4458',
    accent: '#8a5aa8',
    accentKind: 'cardigan',
  },
  {
    skin: '#f4cfae',
    hair: '#c8642e',
    style: 'cap',
    shirt: '#e8894a',
    legs: '#4f6f4a',
    accent: '#3f7a6e',
  },
  { skin: '#b98262', hair: '#e9e6e0', style: 'beard', shirt: '#3f9a94', legs: '#5b4a3f' },
  {
    skin: '#6e4630',
    hair: '#e78fb3',
    style: 'bob',
    shirt: '#7a4f9a',
    legs: '#3a3346',
    accent: '#f6f1e6',
    accentKind: 'apron',
  },
];

const INK = hex('#2e2230');

/** Draws one villager into a fresh 32 × 32 canvas. Pure and deterministic. */
function drawVillager(look: Look): Canvas {
  const c = new Canvas(SPRITE_SIZE, SPRITE_SIZE);
  const skin = hex(look.skin);
  const hair = hex(look.hair);
  const shirt = hex(look.shirt);
  const legs = hex(look.legs);
  const hairDark = shade(hair, 0.78);
  const hairLight = shade(hair, 1.18);

  // Hair that hangs behind the body goes first.
  if (look.style === 'long') {
    c.roundRect(8, 10, 16, 13, 2, hairDark);
  }
  if (look.style === 'ponytail') {
    c.ellipse(23, 13, 3, 5, hairDark);
  }

  // Legs and shoes.
  c.rect(12, 24, 3, 4, legs);
  c.rect(17, 24, 3, 4, legs);
  c.rect(12, 27, 3, 2, hex('#3a2a26'));
  c.rect(17, 27, 3, 2, hex('#3a2a26'));
  // Body and arms.
  c.roundRect(10, 17, 12, 8, 1, shirt);
  c.rect(10, 17, 12, 1, shade(shirt, 1.12));
  c.rect(8, 18, 2, 5, shade(shirt, 0.88));
  c.rect(22, 18, 2, 5, shade(shirt, 0.88));
  c.rect(8, 23, 2, 2, skin);
  c.rect(22, 23, 2, 2, skin);
  if (look.accent && look.accentKind === 'apron') {
    c.rect(12, 19, 8, 6, hex(look.accent));
    c.rect(13, 17, 1, 2, hex(look.accent));
    c.rect(18, 17, 1, 2, hex(look.accent));
    c.rect(15, 21, 2, 1, shade(hex(look.accent), 0.85));
  }
  if (look.accent && look.accentKind === 'cardigan') {
    const a = hex(look.accent);
    c.rect(10, 17, 4, 8, a);
    c.rect(18, 17, 4, 8, a);
    c.rect(8, 18, 2, 5, shade(a, 0.88));
    c.rect(22, 18, 2, 5, shade(a, 0.88));
    c.put(15, 20, shade(a, 0.8));
    c.put(15, 22, shade(a, 0.8));
  }
  if (look.accent && look.accentKind === 'scarf') {
    const a = hex(look.accent);
    c.rect(11, 16, 10, 2, a);
    c.rect(18, 18, 2, 4, shade(a, 0.85));
  }

  // Head: a big round face with a little shading on the lower edge.
  c.ellipse(16, 11, 8, 7.5, (x, y) => (y > 15 ? shade(skin, 0.9) : skin));
  // Eyes, blush and a tiny mouth.
  c.rect(12, 12, 2, 2, INK);
  c.rect(18, 12, 2, 2, INK);
  c.put(13, 12, hex('#fdfcf8'));
  c.put(19, 12, hex('#fdfcf8'));
  c.put(11, 15, withAlpha(hex('#f07a7a'), 140));
  c.put(20, 15, withAlpha(hex('#f07a7a'), 140));
  c.rect(15, 16, 2, 1, shade(skin, 0.7));

  // Hair on top of the head, by style.
  const fringe = (y: number) => {
    c.ellipse(16, 8, 8.5, 5.5, (x, py) =>
      py > y ? null : py >= 4 && py <= 5 && x >= 11 && x <= 14 - (py - 4) ? hairLight : hair,
    );
  };
  switch (look.style) {
    case 'short':
      fringe(9);
      c.rect(8, 8, 2, 4, hair);
      c.rect(22, 8, 2, 4, hair);
      c.rect(13, 9, 3, 1, hair);
      break;
    case 'long':
      fringe(9);
      c.rect(8, 7, 2, 11, hair);
      c.rect(22, 7, 2, 11, hair);
      c.rect(17, 9, 4, 1, hair);
      break;
    case 'curly':
      for (const [x, y] of [
        [9, 7],
        [12, 4],
        [16, 3],
        [20, 4],
        [23, 7],
        [10, 10],
        [22, 10],
        [14, 6],
        [18, 6],
      ]) {
        c.ellipse(x, y, 3, 3, (px, py) => (px - x === -1 && py - y === -2 ? hairLight : hair));
      }
      break;
    case 'ponytail':
      fringe(8);
      c.rect(8, 7, 2, 5, hair);
      c.rect(22, 7, 2, 5, hair);
      c.rect(23, 8, 2, 2, hex('#d2544b'));
      break;
    case 'bun':
      c.ellipse(16, 3, 3.5, 3, hair);
      fringe(8);
      c.rect(8, 7, 2, 5, hair);
      c.rect(22, 7, 2, 5, hair);
      // Round spectacles for the bookish one.
      c.frame(11, 11, 4, 3, hex('#4a3a2a'));
      c.frame(17, 11, 4, 3, hex('#4a3a2a'));
      c.rect(15, 12, 2, 1, hex('#4a3a2a'));
      break;
    case 'cap': {
      const cap = hex(look.accent ?? '#3f7a6e');
      c.rect(8, 9, 2, 4, hair);
      c.rect(22, 9, 2, 4, hair);
      c.ellipse(16, 7, 8.5, 5, (x, y) => (y > 8 ? null : cap));
      c.rect(9, 8, 14, 2, shade(cap, 0.8));
      c.rect(16, 3, 1, 1, shade(cap, 1.3));
      break;
    }
    case 'bob':
      fringe(10);
      c.rect(7, 8, 3, 9, hair);
      c.rect(22, 8, 3, 9, hair);
      c.rect(7, 16, 3, 1, hairDark);
      c.rect(22, 16, 3, 1, hairDark);
      break;
    case 'beard':
      fringe(7);
      c.rect(8, 7, 2, 6, hair);
      c.rect(22, 7, 2, 6, hair);
      c.ellipse(16, 16, 5, 3, hair);
      c.rect(14, 15, 4, 1, shade(skin, 0.7));
      break;
  }

  c.outline(INK);
  // Ground shadow under the feet, beneath everything.
  const out = new Canvas(SPRITE_SIZE, SPRITE_SIZE);
  out.ellipse(16, 29.5, 7, 2, withAlpha(hex('#1a1420'), 80));
  out.draw(c, 0, 0);
  return out;
}

/** Renders the sheet: villager-1 … villager-8 left to right. */
export function renderSprites(): Canvas {
  const sheet = new Canvas(SPRITE_SIZE * LOOKS.length, SPRITE_SIZE);
  LOOKS.forEach((look, i) => sheet.draw(drawVillager(look), i * SPRITE_SIZE, 0));
  return sheet;
}

/** The JSON written to resources/sprites.json: sprite name → frame in the sheet. */
export function spritesJson(): string {
  const frames: Record<string, { x: number; y: number; w: number; h: number }> = {};
  LOOKS.forEach((_, i) => {
    frames[`villager-${i + 1}`] = { x: i * SPRITE_SIZE, y: 0, w: SPRITE_SIZE, h: SPRITE_SIZE };
  });
  const doc = { image: 'sprites.png', frameWidth: SPRITE_SIZE, frameHeight: SPRITE_SIZE, frames };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function main(): void {
  const root = fileURLToPath(new URL('../../resources/', import.meta.url));
  renderSprites().save(`${root}sprites.png`);
  writeFileSync(`${root}sprites.json`, spritesJson());
  console.log(`wrote ${root}sprites.png and sprites.json (${LOOKS.length} villagers)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
