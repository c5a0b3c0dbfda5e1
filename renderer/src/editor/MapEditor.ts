/**
 * The map editor core, free of React and Konva: tools (state charts), session state (tool,
 * layer, brush, selection, layer visibility/lock) and every map/tree edit. Edits go through
 * a DocHost, which feeds history; gestures use marks so a stroke is one undo step.
 *
 * Hot-path rule: a pointer move writes only the cells it touches. The first write to a grid
 * in a gesture copies that grid once ("owned"); later writes in the same gesture mutate the
 * owned copy in place and bump the touched chunks' versions. Ownership ends with the gesture,
 * after which the grid is as immutable as any other (history holds it).
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Scenario, ZoneKind } from '../../../common/scenario/schema';
import { chunkCounts } from '../canvas/chunks';
import { ChunkVersions } from './ChunkVersions';
import type { DocHost } from './DocHost';
import { changedPaths } from './history/docDiff';
import {
  categoryOf,
  chunkOfCell,
  copyRegion,
  diffChunks,
  floodCells,
  gridOf,
  layerIds,
  lineCells,
  rectCells,
  resizeGrid,
  withGrid,
  type RegionClip,
} from './grids';
import { StateNode, type StateNodeClass } from './StateNode';
import { BrushTool, EraserTool } from './tools/StrokeTool';
import { FillTool } from './tools/FillTool';
import { HandTool } from './tools/HandTool';
import { PickerTool } from './tools/PickerTool';
import { RectTool } from './tools/RectTool';
import { SelectTool } from './tools/SelectTool';
import * as treeOps from './tree';
import {
  terrainIndex,
  ZONE_KINDS,
  type EditLayerId,
  type HistoryMode,
  type NodeRef,
  type TilePointer,
  type TileRect,
} from './types';

import type { ToolId } from './tools/toolList';
import { EDITOR_SHORTCUTS } from './editorShortcuts';
import { matchesChord, type KeyPress } from '../shortcuts/chord';

export type { ToolId };

/** What a zone brush paints: an existing zone id, or a node created on first paint. */
export type ZoneChoice = number | 'new';

/** Session state: never saved into the scenario, never in history. */
export interface EditorUi {
  /** Active state chart path, e.g. "brush.painting". */
  path: string;
  tool: ToolId;
  layer: EditLayerId;
  /** Terrain tile painted by the brush (1-based tileset index). */
  tile: number;
  zone: Record<ZoneKind, ZoneChoice>;
  hidden: Partial<Record<EditLayerId, boolean>>;
  locked: Partial<Record<EditLayerId, boolean>>;
  showGrid: boolean;
  /** Region selected with the select tool. */
  selection: TileRect | null;
  /** Rectangle tool preview while dragging. */
  preview: TileRect | null;
  /** The tree node whose tiles the canvas highlights. */
  selectedNode: NodeRef | null;
  /** Size of the copied region, or null when nothing is copied. */
  clipboard: { width: number; height: number } | null;
}

/** What the canvas lends the editor for camera moves (hand tool, focusing issues). */
export interface EditorViewport {
  panBy(dx: number, dy: number): void;
  focusRect(rect: TileRect): void;
}

/** A key press as the editor needs it (from a KeyboardEvent or a test). */
export type EditorKey = KeyPress;

/** Zones that lost tiles to a resize. */
export interface ResizeReport {
  cutOff: { kind: ZoneKind; zone: number; name: string; lost: number; remaining: number }[];
}

class RootState extends StateNode {
  static override id = 'root';
  static override initial = 'brush';
  static override children = (): StateNodeClass[] => [
    BrushTool,
    RectTool,
    FillTool,
    EraserTool,
    PickerTool,
    HandTool,
    SelectTool,
  ];
}

function initialUi(): EditorUi {
  return {
    path: 'brush.idle',
    tool: 'brush',
    layer: 'terrain:0',
    tile: 1,
    zone: { sector: 'new', arena: 'new', object: 'new', spawn: 'new' },
    hidden: {},
    locked: {},
    showGrid: false,
    selection: null,
    preview: null,
    selectedNode: null,
    clipboard: null,
  };
}

export class MapEditor {
  /** Session state for React (narrow selectors) and the canvas (`subscribe`). */
  readonly ui: StoreApi<EditorUi> = createStore<EditorUi>()(() => initialUi());
  /** Per-chunk versions: what the canvas must redraw. */
  readonly versions = new ChunkVersions();

  private readonly root: RootState;
  private viewport: EditorViewport | null = null;
  /** Grids copied during the current gesture; safe to mutate until the gesture ends. */
  private owned = new Set<number[]>();
  private gesture: { layer: EditLayerId; value: number; createdZone: number | null } | null = null;
  /** Tool to return to when Space is released. */
  private spaceFrom: ToolId | null = null;
  /** Middle-button pan in progress (last screen point). */
  private middlePan: { x: number; y: number } | null = null;
  private hover: { x: number; y: number } | null = null;
  private clip: RegionClip | null = null;
  private docId: string | null = null;
  private readonly unsubscribe: () => void;

  /** `initialTool`: the studio opens on the hand so a first drag pans, as it always did. */
  constructor(
    readonly host: DocHost,
    initialTool: ToolId = 'brush',
  ) {
    this.root = new RootState(this, null);
    this.root.enter();
    if (initialTool !== 'brush') this.setTool(initialTool);
    this.unsubscribe = host.subscribe((doc, prev) => this.didChangeDoc(doc, prev));
    this.didChangeDoc(host.getDoc(), null);
  }

  dispose(): void {
    this.unsubscribe();
  }

  // ─── Reads ────────────────────────────────────────────────────────────────

  getDoc(): Scenario | null {
    return this.host.getDoc();
  }
  /** "brush.painting" and the like. */
  getPath(): string {
    return this.root.getPath().replace(/^root\./, '');
  }
  getSelection(): TileRect | null {
    return this.ui.getState().selection;
  }
  getUi(): EditorUi {
    return this.ui.getState();
  }
  /** True while a gesture (stroke) is open: views may defer O(map) work until it ends. */
  isInGesture(): boolean {
    return this.gesture !== null;
  }

  // ─── Session (never history) ──────────────────────────────────────────────

  setTool(tool: ToolId): void {
    if (this.getUi().tool === tool) return;
    // Switching away mid-gesture cancels it, like Escape.
    this.root.handle('onCancel');
    this.ui.setState({ tool, preview: null });
    this.root.transition(tool);
  }
  setLayer(layer: EditLayerId): void {
    this.ui.setState({ layer });
  }
  setTile(tile: number): void {
    this.ui.setState({ tile });
  }
  setZoneChoice(kind: ZoneKind, choice: ZoneChoice): void {
    this.ui.setState((s) => ({ zone: { ...s.zone, [kind]: choice } }));
  }
  toggleHidden(layer: EditLayerId): void {
    this.ui.setState((s) => ({ hidden: { ...s.hidden, [layer]: !s.hidden[layer] } }));
  }
  toggleLocked(layer: EditLayerId): void {
    this.ui.setState((s) => ({ locked: { ...s.locked, [layer]: !s.locked[layer] } }));
  }
  setShowGrid(showGrid: boolean): void {
    this.ui.setState({ showGrid });
  }
  setSelection(selection: TileRect | null): void {
    this.ui.setState({ selection });
  }
  setPreview(preview: TileRect | null): void {
    this.ui.setState({ preview });
  }
  setViewport(viewport: EditorViewport | null): void {
    this.viewport = viewport;
  }
  panBy(dx: number, dy: number): void {
    this.viewport?.panBy(dx, dy);
  }
  /** Selects a tree node (highlighted on the canvas) and, when `focus`, pans to its tiles. */
  selectNode(ref: NodeRef | null, focus = false): void {
    this.ui.setState({ selectedNode: ref });
    if (ref && (ref.kind === 'sector' || ref.kind === 'arena' || ref.kind === 'object')) {
      this.setZoneChoice(ref.kind, ref.zone);
    }
    const doc = this.getDoc();
    if (!ref || !focus || !doc) return;
    const b = treeOps.nodeBounds(doc, ref);
    if (b) this.viewport?.focusRect(b);
  }
  focusTile(x: number, y: number): void {
    this.viewport?.focusRect({ x0: x, y0: y, x1: x, y1: y });
  }
  /** The tile under the pointer (for paste). Not state: it changes at pointer rate. */
  setHover(tile: { x: number; y: number } | null): void {
    this.hover = tile;
  }

  /** Called by StateNode.transition. */
  didChangePath(): void {
    const path = this.getPath();
    if (this.ui.getState().path !== path) this.ui.setState({ path });
  }

  // ─── Input ────────────────────────────────────────────────────────────────

  pointerDown(p: TilePointer): void {
    this.hover = { x: p.x, y: p.y };
    if (p.button === 1) {
      // Middle drag pans whatever tool is active, without entering its state chart.
      this.middlePan = { ...p.screen };
      return;
    }
    this.root.handle('onPointerDown', p);
  }
  pointerMove(p: TilePointer): void {
    this.hover = { x: p.x, y: p.y };
    if (this.middlePan) {
      this.panBy(p.screen.x - this.middlePan.x, p.screen.y - this.middlePan.y);
      this.middlePan = { ...p.screen };
      return;
    }
    this.root.handle('onPointerMove', p);
  }
  pointerUp(p: TilePointer): void {
    if (this.middlePan) {
      this.middlePan = null;
      return;
    }
    this.root.handle('onPointerUp', p);
  }
  /** Escape: cancel the gesture in progress (restoring the document exactly). */
  cancel(): void {
    this.root.handle('onCancel');
  }

  /**
   * Handles a key from the map's shortcut list (editorShortcuts.ts); returns true when it acted
   * (the caller prevents the default).
   */
  keyDown(k: EditorKey): boolean {
    const hit = EDITOR_SHORTCUTS.find((s) => s.keys.some((chord) => matchesChord(chord, k)));
    return hit ? hit.run(this) : false;
  }
  /** Space held: the hand pans until it is released (keyUp), then the tool before comes back. */
  holdSpace(): void {
    if (this.spaceFrom === null && this.getUi().tool !== 'hand' && !this.gesture) {
      this.spaceFrom = this.getUi().tool;
      this.setTool('hand');
    }
  }
  keyUp(k: EditorKey): void {
    if (k.key === ' ' && this.spaceFrom !== null) {
      const back = this.spaceFrom;
      this.spaceFrom = null;
      this.setTool(back);
    }
  }

  // ─── History ──────────────────────────────────────────────────────────────

  undo(): void {
    if (!this.gesture) this.host.undo();
  }
  redo(): void {
    if (!this.gesture) this.host.redo();
  }

  // ─── Gestures (called by tool states) ─────────────────────────────────────

  /** Is `layer` editable? Says why not to the user when it isn't. */
  private editable(layer: EditLayerId): boolean {
    const { locked, hidden } = this.getUi();
    if (locked[layer]) {
      this.host.notify(`The ${layerLabel(layer, this.getDoc())} layer is locked`);
      return false;
    }
    if (hidden[layer]) {
      this.host.notify(`The ${layerLabel(layer, this.getDoc())} layer is hidden`);
      return false;
    }
    return true;
  }

  /** Opens a stroke at `p`; false (and nothing written) when the layer refuses it. */
  beginStroke(kind: 'paint' | 'erase', p: TilePointer): boolean {
    const layer = this.getUi().layer;
    if (!this.getDoc() || !this.editable(layer)) return false;
    this.host.mark(kind);
    const value = kind === 'erase' ? { value: 0, created: null } : this.brushValue(layer, p);
    if (!value) {
      this.host.bail();
      return false;
    }
    this.gesture = { layer, value: value.value, createdZone: value.created };
    this.writeCells(layer, this.cellsAt([p]), () => value.value);
    return true;
  }

  /** Continues the stroke along the line from `a` to `b`. */
  strokeTo(a: { x: number; y: number }, b: { x: number; y: number }): void {
    const g = this.gesture;
    if (!g) return;
    this.writeCells(g.layer, this.cellsAt(lineCells(a, b)), () => g.value);
  }

  /** Closes the stroke: one undo step when `commit`, else the document as before it. */
  endGesture(commit: boolean): void {
    const g = this.gesture;
    this.gesture = null;
    this.owned.clear();
    if (commit) this.host.squash();
    else {
      this.host.bail();
      // A zone created by the cancelled stroke no longer exists.
      if (g?.createdZone != null && !ZONE_KINDS.includes(g.layer as ZoneKind)) return;
      if (g?.createdZone != null) this.setZoneChoice(g.layer as ZoneKind, 'new');
    }
  }

  /** Fills `rect` on the active layer with the brush value: one undo step. */
  fillRect(rect: TileRect): void {
    const doc = this.getDoc();
    const layer = this.getUi().layer;
    if (!doc || !this.editable(layer)) return;
    const cells = rectCells(doc.map, rect);
    if (cells.length === 0) return;
    this.oneStep('rectangle', () => {
      const v = this.brushValue(layer, { x: rect.x0, y: rect.y0 });
      if (!v) return false;
      this.writeCells(layer, cells, () => v.value);
      return true;
    });
  }

  /** Flood-fills from (x, y) on the active layer with the brush value: one undo step. */
  floodFill(x: number, y: number): void {
    const doc = this.getDoc();
    const layer = this.getUi().layer;
    if (!doc || !this.editable(layer) || !inside(doc, x, y)) return;
    const cells = floodCells(gridOf(doc, layer), doc.map.width, doc.map.height, x, y);
    this.oneStep('fill', () => {
      const v = this.brushValue(layer, { x, y });
      if (!v) return false;
      this.writeCells(layer, cells, () => v.value);
      return true;
    });
  }

  /** Takes the active layer's value at (x, y) as the brush. */
  pickAt(x: number, y: number): boolean {
    const doc = this.getDoc();
    if (!doc || !inside(doc, x, y)) return false;
    const layer = this.getUi().layer;
    const v = gridOf(doc, layer)[y * doc.map.width + x];
    if (terrainIndex(layer) !== null) {
      if (v > 0) this.setTile(v);
      return v > 0;
    }
    if (layer === 'collision') return true;
    const kind = layer as ZoneKind;
    this.setZoneChoice(kind, v > 0 ? v : 'new');
    if (v > 0) this.selectNode({ kind, zone: v });
    return true;
  }

  // ─── Copy / paste / resize ────────────────────────────────────────────────

  /** Copies the selected region of every layer. */
  copy(): boolean {
    const doc = this.getDoc();
    const sel = this.getSelection();
    if (!doc || !sel) return false;
    this.clip = copyRegion(doc, sel);
    this.ui.setState({
      clipboard: this.clip && { width: this.clip.width, height: this.clip.height },
    });
    if (this.clip) this.host.notify(`Copied ${this.clip.width}×${this.clip.height} tiles`);
    return this.clip !== null;
  }

  /**
   * Pastes the copied region with its top-left at `at` (default: the hovered tile, else the
   * selection's corner): every layer, locked layers skipped, one undo step.
   */
  paste(at?: { x: number; y: number }): boolean {
    const doc = this.getDoc();
    const clip = this.clip;
    const origin =
      at ??
      this.hover ??
      (this.getSelection() && { x: this.getSelection()!.x0, y: this.getSelection()!.y0 });
    if (!doc || !clip || !origin) return false;
    const { width } = doc.map;
    const locked = this.getUi().locked;
    this.oneStep('paste', () => {
      for (const layer of layerIds(this.getDoc()!)) {
        const src = clip.layers[layer];
        if (!src || locked[layer]) continue;
        const cells: number[] = [];
        const values: number[] = [];
        for (let y = 0; y < clip.height; y++)
          for (let x = 0; x < clip.width; x++) {
            const tx = origin.x + x;
            const ty = origin.y + y;
            if (!inside(doc, tx, ty)) continue;
            cells.push(ty * width + tx);
            values.push(src[y * clip.width + x]);
          }
        this.writeCells(layer, cells, (k) => values[k]);
      }
      return true;
    });
    this.setSelection({
      x0: origin.x,
      y0: origin.y,
      x1: origin.x + clip.width - 1,
      y1: origin.y + clip.height - 1,
    });
    return true;
  }

  /** Resizes the map (anchored top-left); reports zones that lost tiles. One undo step. */
  resize(width: number, height: number): ResizeReport {
    const doc = this.getDoc();
    const report: ResizeReport = { cutOff: [] };
    if (!doc || width < 1 || height < 1) return report;
    const { width: ow, height: oh } = doc.map;
    if (ow === width && oh === height) return report;
    const r = (g: number[], fill = 0) => resizeGrid(g, ow, oh, width, height, fill);
    const zones = {
      sector: r(doc.map.zones.sector),
      arena: r(doc.map.zones.arena),
      object: r(doc.map.zones.object),
      spawn: r(doc.map.zones.spawn),
    };
    for (const kind of ZONE_KINDS) {
      const before = countZones(doc.map.zones[kind]);
      const after = countZones(zones[kind]);
      for (const [zone, n] of before) {
        const remaining = after.get(zone) ?? 0;
        if (remaining === n) continue;
        const name = treeOps.findNode(doc.tree, { kind, zone })?.name ?? `${kind} ${zone}`;
        report.cutOff.push({ kind, zone, name, lost: n - remaining, remaining });
      }
    }
    const next: Scenario = {
      ...doc,
      map: {
        ...doc.map,
        width,
        height,
        // New ground is the first layer's most common tile ("grass"), upper layers empty.
        layers: doc.map.layers.map((l, i) => ({ ...l, tiles: r(l.tiles, i === 0 ? 1 : 0) })),
        collision: r(doc.map.collision),
        zones,
      },
    };
    this.host.write(next, 'record', 'resize');
    if (report.cutOff.length) {
      const gone = report.cutOff.filter((c) => c.remaining === 0).map((c) => c.name);
      this.host.notify(
        `Resized to ${width}×${height}: ${report.cutOff.length} zone(s) cut` +
          (gone.length ? `; now empty: ${gone.join(', ')}` : ''),
      );
    }
    return report;
  }

  /** Adds an empty terrain layer on top and makes it active. */
  addTerrainLayer(): void {
    const doc = this.getDoc();
    if (!doc) return;
    const tiles = new Array<number>(doc.map.width * doc.map.height).fill(0);
    const name = `Layer ${doc.map.layers.length + 1}`;
    this.write(
      { ...doc, map: { ...doc.map, layers: [...doc.map.layers, { name, visible: true, tiles }] } },
      'record',
      'add layer',
    );
    this.setLayer(`terrain:${doc.map.layers.length}`);
  }

  // ─── Tree (synced with the zone grids) ────────────────────────────────────

  addNode(kind: ZoneKind, parent: number | null, name?: string): number | null {
    const doc = this.getDoc();
    const res = doc && treeOps.addNode(doc, kind, parent, name);
    if (!res) return null;
    this.write(res.doc, 'record', `add ${kind}`);
    this.selectNode({ kind, zone: res.zone });
    return res.zone;
  }
  renameNode(ref: NodeRef, name: string): void {
    const doc = this.getDoc();
    if (doc)
      this.write(treeOps.renameNode(doc, ref, name), 'record', `rename:${ref.kind}:${ref.zone}`);
  }
  updateNode(ref: NodeRef, patch: { description?: string; defaultState?: string }): void {
    const doc = this.getDoc();
    if (doc)
      this.write(
        treeOps.updateNodeFields(doc, ref, patch),
        'record',
        `edit:${ref.kind}:${ref.zone}`,
      );
  }
  /**
   * Deletes a node and its children, clearing their tiles and the known places through them:
   * one undo step. Refused, with a notice naming them, while it is someone's home.
   */
  deleteNode(ref: NodeRef): void {
    const doc = this.getDoc();
    if (!doc) return;
    const homes = treeOps.homesInside(doc, ref);
    if (homes.length > 0) {
      const name = treeOps.findNode(doc.tree, ref)?.name ?? ref.kind;
      const who =
        homes.length > 3
          ? `${homes.slice(0, 3).join(', ')} and ${homes.length - 3} more`
          : homes.join(', ');
      this.host.notify(
        `"${name}" was not deleted: it is the home of ${who}. Give them another home first.`,
      );
      return;
    }
    this.write(treeOps.deleteNode(doc, ref), 'record', `delete ${ref.kind}`);
    const sel = this.getUi().selectedNode;
    if (sel && sel.kind === ref.kind && sel.zone === ref.zone) this.selectNode(null);
  }
  moveNode(ref: NodeRef, delta: number): void {
    const doc = this.getDoc();
    if (doc) this.write(treeOps.moveNode(doc, ref, delta), 'record', 'reorder');
  }

  // ─── Internals ────────────────────────────────────────────────────────────

  private write(next: Scenario, mode: HistoryMode, label: string): void {
    const doc = this.getDoc();
    if (doc && next !== doc) this.host.write(next, mode, label);
  }

  /** Runs `fn` as one undo step (a mark around its writes); cancelled when it returns false. */
  private oneStep(label: string, fn: () => boolean): void {
    this.host.mark(label);
    let ok = false;
    try {
      ok = fn();
    } finally {
      this.owned.clear();
      if (ok) this.host.squash();
      else this.host.bail();
    }
  }

  /** Map cells of tile points inside the map. */
  private cellsAt(points: { x: number; y: number }[]): number[] {
    const doc = this.getDoc();
    if (!doc) return [];
    return points.filter((p) => inside(doc, p.x, p.y)).map((p) => p.y * doc.map.width + p.x);
  }

  /**
   * What the brush writes on `layer` at `p`: a tile, 1 for collision, or a zone id (creating
   * the tree node for a "new zone" brush, under the sector/arena found at `p`).
   */
  private brushValue(
    layer: EditLayerId,
    p: { x: number; y: number },
  ): { value: number; created: number | null } | null {
    const doc = this.getDoc();
    if (!doc) return null;
    if (terrainIndex(layer) !== null) return { value: this.getUi().tile, created: null };
    if (layer === 'collision') return { value: 1, created: null };
    const kind = layer as ZoneKind;
    const choice = this.getUi().zone[kind];
    if (choice !== 'new' && treeOps.findNode(doc.tree, { kind, zone: choice }))
      return { value: choice, created: null };
    let parent: number | null = null;
    if (kind === 'arena' || kind === 'object') {
      const parentKind: ZoneKind = kind === 'arena' ? 'sector' : 'arena';
      const atP = inside(doc, p.x, p.y) ? doc.map.zones[parentKind][p.y * doc.map.width + p.x] : 0;
      const sel = this.getUi().selectedNode;
      const selParent =
        sel?.kind === parentKind
          ? sel.zone
          : sel && parentKind === 'sector' && sel.kind === 'arena'
            ? (treeOps.findNode(doc.tree, sel)?.sector ?? 0)
            : 0;
      parent = atP || selParent || null;
      if (!parent || !treeOps.findNode(doc.tree, { kind: parentKind, zone: parent })) {
        this.host.notify(
          `Paint inside ${parentKind === 'sector' ? 'a sector' : 'an arena'} to add a new ${kind}`,
        );
        return null;
      }
    }
    const added = treeOps.addNode(doc, kind, parent);
    if (!added) return null;
    this.host.write(added.doc, 'record', `add ${kind}`);
    this.setZoneChoice(kind, added.zone);
    this.ui.setState({ selectedNode: { kind, zone: added.zone } });
    return { value: added.zone, created: added.zone };
  }

  /** Writes `valueOf(k)` into cells[k] of `layer`: copy-once-per-gesture, chunk versions bumped. */
  private writeCells(layer: EditLayerId, cells: number[], valueOf: (k: number) => number): void {
    const doc = this.getDoc();
    if (!doc || cells.length === 0) return;
    let grid = gridOf(doc, layer);
    let changed = false;
    for (let k = 0; k < cells.length && !changed; k++) changed = grid[cells[k]] !== valueOf(k);
    if (!changed) return;
    const fresh = !this.owned.has(grid);
    if (fresh) {
      grid = grid.slice();
      this.owned.add(grid);
    }
    const chunks = new Set<number>();
    for (let k = 0; k < cells.length; k++) {
      const v = valueOf(k);
      if (grid[cells[k]] === v) continue;
      grid[cells[k]] = v;
      chunks.add(chunkOfCell(cells[k], doc.map.width));
    }
    // A new document object every time, so subscribers see the change; the grid inside is
    // the owned copy (replaced only on the gesture's first write).
    this.host.write(withGrid(doc, layer, grid), 'record', 'paint');
    if (!fresh) this.versions.bump(categoryOf(layer), chunks);
  }

  /** Keeps chunk versions in step with any document change (undo, load, other writers). */
  private didChangeDoc(doc: Scenario | null, prev: Scenario | null): void {
    if (!doc) {
      this.docId = null;
      return;
    }
    const counts = chunkCounts(doc.map);
    const sameShape =
      prev && prev.map.width === doc.map.width && prev.map.height === doc.map.height;
    if (doc.id !== this.docId) {
      this.docId = doc.id;
      this.clip = null;
      this.ui.setState((s) => ({
        ...initialUi(),
        tool: s.tool,
        path: s.path,
        tile: s.tile,
        showGrid: s.showGrid,
        layer:
          terrainIndex(s.layer) !== null && terrainIndex(s.layer)! >= doc.map.layers.length
            ? 'terrain:0'
            : s.layer,
      }));
      this.versions.resetAll(counts.x * counts.y);
      return;
    }
    if (!prev || !sameShape) {
      this.versions.resetAll(counts.x * counts.y);
      return;
    }
    const w = doc.map.width;
    for (const path of changedPaths(prev, doc)) {
      if (path === 'map.layers') {
        const dirty = new Set<number>();
        const n = Math.max(prev.map.layers.length, doc.map.layers.length);
        for (let i = 0; i < n; i++) {
          const a = prev.map.layers[i];
          const b = doc.map.layers[i];
          if (a === b) continue;
          if (!a || !b || a.visible !== b.visible) {
            for (let c = 0; c < counts.x * counts.y; c++) dirty.add(c);
            break;
          }
          if (a.tiles !== b.tiles) for (const c of diffChunks(a.tiles, b.tiles, w)) dirty.add(c);
        }
        this.versions.bump('terrain', dirty);
      } else if (path === 'map.collision') {
        this.versions.bump('collision', diffChunks(prev.map.collision, doc.map.collision, w));
      } else if (path.startsWith('map.zones.')) {
        const kind = path.slice(10) as ZoneKind;
        this.versions.bump(kind, diffChunks(prev.map.zones[kind], doc.map.zones[kind], w));
      }
    }
    const layer = this.getUi().layer;
    const t = terrainIndex(layer);
    if (t !== null && t >= doc.map.layers.length) this.setLayer('terrain:0');
  }
}

function inside(doc: Scenario, x: number, y: number): boolean {
  return x >= 0 && y >= 0 && x < doc.map.width && y < doc.map.height;
}

function countZones(g: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const z of g) if (z) out.set(z, (out.get(z) ?? 0) + 1);
  return out;
}

/** A layer's name for messages and the layers panel. */
export function layerLabel(layer: EditLayerId, doc: Scenario | null): string {
  const t = terrainIndex(layer);
  if (t !== null) return doc?.map.layers[t]?.name ?? `Layer ${t + 1}`;
  return {
    collision: 'Walls',
    sector: 'Sectors',
    arena: 'Arenas',
    object: 'Objects',
    spawn: 'Spawns',
  }[layer as Exclude<EditLayerId, `terrain:${number}`>];
}
