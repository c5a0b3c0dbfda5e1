/**
 * The town canvas's view toolbar (top right): zoom out/in with the zoom readout, Fit, and the
 * Zones, Collision and Grid toggles. View state only: nothing here edits the town.
 */
import { WHEEL_ZOOM_FACTOR } from './camera';

export interface MapViewToolbarProps {
  zoom: number;
  zoomBy(factor: number): void;
  fit(): void;
  showZones: boolean;
  onShowZones(show: boolean): void;
  showCollision: boolean;
  onShowCollision(show: boolean): void;
  showGrid: boolean;
  onShowGrid(show: boolean): void;
}

export function MapViewToolbar(props: MapViewToolbarProps) {
  const { zoom, zoomBy, fit } = props;
  return (
    <div className="town-canvas__toolbar" role="toolbar" aria-label="Map view">
      <button
        type="button"
        className="icon-button"
        data-testid="zoom-out"
        title="Zoom out"
        onClick={() => zoomBy(1 / WHEEL_ZOOM_FACTOR)}
      >
        −
      </button>
      <span className="town-canvas__zoom" data-testid="zoom-level">
        {Math.round(zoom * 100)}%
      </span>
      <button
        type="button"
        className="icon-button"
        data-testid="zoom-in"
        title="Zoom in"
        onClick={() => zoomBy(WHEEL_ZOOM_FACTOR)}
      >
        +
      </button>
      <button type="button" className="chip-button" data-testid="zoom-fit" onClick={fit}>
        Fit
      </button>
      <span className="town-canvas__sep" />
      <Toggle
        id="toggle-zones"
        title="Zone tints, outlines and names"
        checked={props.showZones}
        onChange={props.onShowZones}
      >
        Zones
      </Toggle>
      <Toggle
        id="toggle-collision"
        title="Hatch blocked tiles"
        checked={props.showCollision}
        onChange={props.onShowCollision}
      >
        Collision
      </Toggle>
      <Toggle
        id="toggle-grid"
        title="Tile grid"
        checked={props.showGrid}
        onChange={props.onShowGrid}
      >
        Grid
      </Toggle>
    </div>
  );
}

/** A labelled view toggle in the canvas toolbar; `id` doubles as its test id. */
function Toggle(props: {
  id: string;
  title: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: React.ReactNode;
}) {
  return (
    <label className="toggle" title={props.title}>
      <input
        type="checkbox"
        data-testid={props.id}
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      {props.children}
    </label>
  );
}
