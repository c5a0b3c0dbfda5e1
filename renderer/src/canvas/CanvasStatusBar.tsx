/**
 * The town canvas's status bar: the active tool's state in words, the hovered tile and its
 * address (or the map's size and how to move around), and the way to the shortcut sheet.
 */
import { toolStatus } from '../editor/statusText';
import { useShortcutSheet } from '../shortcuts/ShortcutSheet';

export interface CanvasStatusBarProps {
  /** The editor's tool state path ("brush.idle"). */
  path: string;
  /** The hovered tile and the address under it, or null. */
  hover: { x: number; y: number; address: string | null } | null;
  width: number;
  height: number;
  /** Whether the hand tool is active (no "Space-drag to pan" hint then). */
  hand: boolean;
  tilesetMissing: boolean;
}

export function CanvasStatusBar({
  path,
  hover,
  width,
  height,
  hand,
  tilesetMissing,
}: CanvasStatusBarProps) {
  return (
    <div className="town-canvas__status" data-testid="canvas-status">
      <span className="town-canvas__path" data-testid="tool-path" data-path={path}>
        {toolStatus(path)}
      </span>
      {hover ? (
        <>
          <span className="mono" data-testid="hover-tile-address">
            {hover.x},{hover.y}
          </span>
          <span data-testid="hover-address">{hover.address}</span>
        </>
      ) : (
        <span className="muted">
          {width}×{height} tiles · {hand ? '' : 'Space-drag to pan · '}scroll to zoom
          {tilesetMissing ? ' · tileset image unavailable, showing placeholder colours' : ''}
        </span>
      )}
      <button
        type="button"
        className="link-button town-canvas__keys"
        data-testid="shortcuts-open"
        title="Every keyboard shortcut (?)"
        onClick={() => useShortcutSheet.getState().setOpen(true)}
      >
        Shortcuts <kbd>?</kbd>
      </button>
    </div>
  );
}
