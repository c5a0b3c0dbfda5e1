/**
 * The zone names on the town canvas, as `layoutLabels` decided at this zoom: sector tags,
 * arena names along their top edge, object names on their tiles. Each keeps a constant
 * on-screen size (scaled by 1/zoom); names that would overlap are hidden, names longer than
 * their zone shortened. Konva ids: `sector-label-<zone>`, `arena-label-<zone>`,
 * `object-label-<zone>`.
 */
import { Label, Tag, Text } from 'react-konva';
import { zoneColor } from './colors';
import { NAME_MAX_PX, type Measure } from './labels';
import type { ZoneShape } from './zones';

const FONT = 'Inter, system-ui, sans-serif';

let measureCtx: CanvasRenderingContext2D | null = null;
/** Text width as Konva will draw it (same font stack), screen px. */
export const measureLabel: Measure = (text, size, bold) => {
  measureCtx ??= document.createElement('canvas').getContext('2d')!;
  measureCtx.font = `${bold ? '600 ' : ''}${size}px ${FONT}`;
  return measureCtx.measureText(text).width;
};

export function MapLabels({
  shown,
  sectors,
  arenas,
  objects,
  tileSize,
  zoom,
}: {
  /** Label key (`sector-3`) → the text to draw; absent keys are hidden. */
  shown: Map<string, string>;
  sectors: readonly ZoneShape[];
  arenas: readonly ZoneShape[];
  objects: readonly ZoneShape[];
  tileSize: number;
  zoom: number;
}) {
  const ts = tileSize;
  const scale = 1 / zoom;
  return (
    <>
      {objects.map((s) => {
        const text = shown.get(`object-${s.zone}`);
        return (
          text && (
            <ZoneName
              key={`ol${s.zone}`}
              id={`object-label-${s.zone}`}
              x={(s.anchor.x + 0.5) * ts}
              y={(s.anchor.y + 0.5) * ts}
              scale={scale}
              text={text}
              color="#ffd666"
              size={10}
            />
          )
        );
      })}
      {arenas.map((s) => {
        const text = shown.get(`arena-${s.zone}`);
        return (
          text && (
            <ZoneName
              key={`al${s.zone}`}
              id={`arena-label-${s.zone}`}
              x={((s.minX + s.maxX + 1) / 2) * ts}
              y={(s.minY + 0.45) * ts}
              scale={scale}
              text={text}
              color="#e6e8eb"
              size={11}
            />
          )
        );
      })}
      {sectors.map((s) => {
        const text = shown.get(`sector-${s.zone}`);
        return (
          text && (
            <Label
              key={s.zone}
              id={`sector-label-${s.zone}`}
              name="sector-label"
              x={(s.anchor.x + 0.5) * ts}
              y={(s.anchor.y + 0.5) * ts}
              scaleX={scale}
              scaleY={scale}
            >
              <Tag
                fill="rgba(16, 18, 22, 0.78)"
                cornerRadius={4}
                pointerDirection="down"
                pointerWidth={8}
                pointerHeight={5}
              />
              <Text
                text={text}
                fontSize={12}
                fontStyle="600"
                fontFamily={FONT}
                fill={zoneColor(s.zone)}
                padding={5}
              />
            </Label>
          )
        );
      })}
    </>
  );
}

/** A name centred on (x, y), map px. */
function ZoneName(props: {
  id: string;
  x: number;
  y: number;
  scale: number;
  text: string;
  color: string;
  size: number;
}) {
  return (
    <Text
      id={props.id}
      name="zone-label"
      x={props.x}
      y={props.y}
      width={NAME_MAX_PX}
      offsetX={NAME_MAX_PX / 2}
      offsetY={props.size / 2}
      align="center"
      wrap="none"
      scaleX={props.scale}
      scaleY={props.scale}
      text={props.text}
      fontSize={props.size}
      fill={props.color}
      fontFamily={FONT}
      shadowColor="black"
      shadowBlur={3}
      shadowOpacity={0.9}
    />
  );
}
