/** Picks one of the studio's own villager sprites, drawn straight from resources/sprites.png. */
import spriteSheet from '../../../resources/sprites.json';

type Frame = { x: number; y: number; w: number; h: number };
const frames = spriteSheet.frames as Record<string, Frame>;
export const SPRITE_NAMES = Object.keys(frames);
const SHEET_WIDTH = Math.max(...Object.values(frames).map((f) => f.x + f.w));

/** The sprite as a CSS background, scaled by `scale` with crisp pixels. */
export function SpriteImage({ name, scale = 1.5 }: { name: string; scale?: number }) {
  const f = frames[name] ?? frames[SPRITE_NAMES[0]];
  // Relative URL: resources/ is the renderer's public dir, served next to index.html.
  return (
    <span
      className="sprite"
      aria-hidden
      style={{
        width: f.w * scale,
        height: f.h * scale,
        backgroundImage: `url(${spriteSheet.image})`,
        backgroundPosition: `${-f.x * scale}px ${-f.y * scale}px`,
        backgroundSize: `${SHEET_WIDTH * scale}px auto`,
      }}
    />
  );
}

export function SpritePicker({ value, onChange }: { value: string; onChange(v: string): void }) {
  return (
    <div className="field">
      <span className="field__label">Sprite</span>
      <div
        className="sprite-grid"
        role="radiogroup"
        aria-label="Sprite"
        data-testid="sprite-picker"
      >
        {SPRITE_NAMES.map((name) => (
          <button
            key={name}
            type="button"
            role="radio"
            aria-checked={value === name}
            title={name}
            data-testid="sprite-option"
            data-sprite={name}
            className={`sprite-option ${value === name ? 'sprite-option--on' : ''}`}
            onClick={() => onChange(name)}
          >
            <SpriteImage name={name} scale={1} />
          </button>
        ))}
      </div>
    </div>
  );
}
