import { describe, expect, it } from 'vitest';
import { TestMapEditor } from './TestMapEditor';

describe('brush', () => {
  it('a stroke is one undo step and undo restores every painted tile', () => {
    const ed = new TestMapEditor();
    ed.setTile(5);
    const before = ed.doc;
    ed.pointerDownAt(2, 2).expectToBeIn('brush.painting');
    ed.pointerMoveTo(6, 2).pointerMoveTo(6, 4);
    ed.pointerUpAt(6, 4).expectToBeIn('brush.idle');
    // The line from (2,2) to (6,2) has no gaps even though only two moves arrived.
    for (let x = 2; x <= 6; x++) expect(ed.terrain(x, 2)).toBe(5);
    expect(ed.terrain(6, 3)).toBe(5);
    expect(ed.memory.history.getUndoLabels()).toEqual(['paint']);
    ed.undoKey();
    expect(ed.doc.map.layers[0].tiles).toEqual(before.map.layers[0].tiles);
    ed.redoKey();
    expect(ed.terrain(4, 2)).toBe(5);
    ed.undoKey().key('y', { ctrl: true });
    expect(ed.terrain(4, 2)).toBe(5);
  });

  it('Escape during a stroke restores the map exactly and leaves nothing to undo', () => {
    const ed = new TestMapEditor();
    const before = ed.doc;
    ed.setTile(6);
    ed.pointerDownAt(1, 1).pointerMoveTo(8, 1);
    ed.key('Escape').expectToBeIn('brush.idle');
    expect(ed.doc.map).toEqual(before.map);
    expect(ed.memory.history.getCanUndo()).toBe(false);
    // The pointer-up after a cancel must not paint or commit anything.
    ed.pointerUpAt(8, 1);
    expect(ed.memory.history.getCanUndo()).toBe(false);
  });

  it('copies a grid once per gesture, not per pointer move', () => {
    const ed = new TestMapEditor();
    ed.setTile(4);
    ed.pointerDownAt(0, 0);
    const grid = ed.doc.map.layers[0].tiles;
    ed.pointerMoveTo(3, 0).pointerMoveTo(3, 3);
    expect(ed.doc.map.layers[0].tiles).toBe(grid);
    ed.pointerUpAt(3, 3);
  });

  it('bumps only the chunks a stroke touched', () => {
    const ed = new TestMapEditor();
    const seen: number[] = [];
    ed.versions.onDidChange((cat, chunks) => {
      if (cat === 'terrain' && chunks) seen.push(...chunks);
    });
    ed.setTile(2);
    ed.drag([
      [1, 1],
      [2, 1],
      [20, 1],
    ]);
    expect(new Set(seen)).toEqual(new Set([0, 1]));
  });

  it('selection, tool and camera changes never clear redo', () => {
    const ed = new TestMapEditor();
    ed.setTile(2);
    ed.drag([
      [1, 1],
      [2, 1],
    ]);
    ed.undoKey();
    expect(ed.memory.history.getCanRedo()).toBe(true);
    ed.key('v').drag([
      [0, 0],
      [3, 3],
    ]);
    ed.key('h').drag([
      [0, 0],
      [5, 5],
    ]);
    ed.selectNode(null);
    expect(ed.memory.history.getCanRedo()).toBe(true);
  });

  it('refuses to paint a locked layer and says so', () => {
    const ed = new TestMapEditor();
    ed.toggleLocked('terrain:0');
    ed.setTile(7);
    ed.pointerDownAt(1, 1).expectToBeIn('brush.idle');
    expect(ed.terrain(1, 1)).toBe(1);
    expect(ed.memory.messages.at(-1)).toMatch(/locked/);
  });
});

describe('eraser', () => {
  it('clears the active layer along the stroke as one step', () => {
    const ed = new TestMapEditor();
    ed.setLayer('collision');
    ed.drag([
      [0, 0],
      [4, 0],
    ]);
    expect(ed.doc.map.collision.slice(0, 5)).toEqual([1, 1, 1, 1, 1]);
    ed.key('e').pointerDownAt(1, 0).expectToBeIn('eraser.erasing');
    ed.pointerMoveTo(3, 0).pointerUpAt(3, 0);
    expect(ed.doc.map.collision.slice(0, 5)).toEqual([1, 0, 0, 0, 1]);
    ed.undoKey();
    expect(ed.doc.map.collision.slice(0, 5)).toEqual([1, 1, 1, 1, 1]);
  });
});

describe('rectangle', () => {
  it('previews while dragging and fills on release as one step', () => {
    const ed = new TestMapEditor();
    ed.key('r').setTile(5);
    ed.pointerDownAt(2, 2).expectToBeIn('rect.dragging');
    ed.pointerMoveTo(4, 3);
    expect(ed.getUi().preview).toEqual({ x0: 2, y0: 2, x1: 4, y1: 3 });
    expect(ed.terrain(3, 3)).toBe(1);
    ed.pointerUpAt(4, 3).expectToBeIn('rect.idle');
    expect(ed.getUi().preview).toBeNull();
    expect(ed.terrain(2, 2)).toBe(5);
    expect(ed.terrain(4, 3)).toBe(5);
    expect(ed.terrain(5, 3)).toBe(1);
    ed.undoKey();
    expect(ed.terrain(3, 3)).toBe(1);
  });

  it('Escape drops the rectangle without writing', () => {
    const ed = new TestMapEditor();
    ed.key('r').pointerDownAt(0, 0).pointerMoveTo(5, 5).key('Escape').expectToBeIn('rect.idle');
    expect(ed.getUi().preview).toBeNull();
    expect(ed.memory.history.getCanUndo()).toBe(false);
  });
});

describe('fill', () => {
  it('floods the connected region of equal tiles, one undo step', () => {
    const ed = new TestMapEditor();
    ed.setTile(9);
    ed.key('r').drag([
      [0, 5],
      [39, 5],
    ]); // a wall across the map
    ed.setTile(3);
    ed.key('f').click(0, 0).expectToBeIn('fill.idle');
    expect(ed.terrain(39, 4)).toBe(3);
    expect(ed.terrain(0, 6)).toBe(1);
    ed.undoKey();
    expect(ed.terrain(39, 4)).toBe(1);
    expect(ed.terrain(0, 5)).toBe(9);
  });
});

describe('picker', () => {
  it('takes the tile under the cursor and returns to the brush', () => {
    const ed = new TestMapEditor();
    ed.setTile(12);
    ed.click(3, 3);
    ed.setTile(1);
    ed.key('i').click(3, 3).expectToBeIn('brush.idle');
    expect(ed.getUi().tile).toBe(12);
  });
});

describe('hand', () => {
  it('pans by screen deltas while dragging; Space pans temporarily; middle drag pans any tool', () => {
    const ed = new TestMapEditor();
    ed.key('h').pointerDownAt(0, 0).expectToBeIn('hand.panning');
    ed.pointerMoveTo(2, 1).pointerUpAt(2, 1).expectToBeIn('hand.idle');
    expect(ed.pans).toEqual([{ dx: 64, dy: 32 }]);
    ed.key('b').key(' ').expectToBeIn('hand.idle');
    ed.keyRelease(' ').expectToBeIn('brush.idle');
    ed.drag(
      [
        [0, 0],
        [1, 0],
      ],
      1,
    );
    expect(ed.pans.at(-1)).toEqual({ dx: 32, dy: 0 });
    expect(ed.terrain(0, 0)).toBe(1);
    expect(ed.memory.history.getCanUndo()).toBe(false);
  });
});

describe('select, copy and paste', () => {
  it('copies a region of every layer and pastes it as one step', () => {
    const ed = new TestMapEditor();
    ed.setTile(5);
    ed.key('r').drag([
      [1, 1],
      [2, 2],
    ]);
    ed.setLayer('collision');
    ed.drag([
      [1, 1],
      [1, 1],
    ]);
    ed.key('v').pointerDownAt(1, 1).expectToBeIn('select.selecting');
    ed.pointerMoveTo(2, 2).pointerUpAt(2, 2).expectToBeIn('select.idle');
    expect(ed.getSelection()).toEqual({ x0: 1, y0: 1, x1: 2, y1: 2 });
    ed.key('c', { ctrl: true });
    expect(ed.getUi().clipboard).toEqual({ width: 2, height: 2 });
    const steps = ed.memory.history.getUndoLabels().length;
    ed.paste({ x: 10, y: 10 });
    expect(ed.terrain(10, 10)).toBe(5);
    expect(ed.terrain(11, 11)).toBe(5);
    expect(ed.at(ed.doc.map.collision, 10, 10)).toBe(1);
    expect(ed.at(ed.doc.map.collision, 11, 10)).toBe(0);
    expect(ed.memory.history.getUndoLabels().length).toBe(steps + 1);
    ed.undoKey();
    expect(ed.terrain(10, 10)).toBe(1);
    expect(ed.at(ed.doc.map.collision, 10, 10)).toBe(0);
  });

  it('Escape while selecting restores the previous selection', () => {
    const ed = new TestMapEditor();
    ed.key('v').drag([
      [0, 0],
      [1, 1],
    ]);
    ed.pointerDownAt(5, 5).pointerMoveTo(7, 7).key('Escape');
    expect(ed.getSelection()).toEqual({ x0: 0, y0: 0, x1: 1, y1: 1 });
  });
});

describe('resize', () => {
  it('anchors top-left, reports zones cut off, and undoes in one step', () => {
    const ed = new TestMapEditor();
    ed.setLayer('sector');
    ed.key('r').drag([
      [30, 20],
      [35, 25],
    ]);
    ed.setZoneChoice('sector', 'new');
    ed.drag([
      [0, 0],
      [3, 3],
    ]);
    const before = ed.doc;
    const report = ed.resize(20, 15);
    expect(report.cutOff).toEqual([
      { kind: 'sector', zone: 1, name: 'New sector 1', lost: 36, remaining: 0 },
    ]);
    expect(ed.doc.map.width).toBe(20);
    expect(ed.doc.map.zones.sector.length).toBe(300);
    expect(ed.at(ed.doc.map.zones.sector, 3, 3)).toBe(2);
    ed.undoKey();
    expect(ed.doc.map).toEqual(before.map);
    ed.redoKey();
    expect(ed.doc.map.height).toBe(15);
  });
});

describe('layers', () => {
  it('adds terrain layers and paints the active one only', () => {
    const ed = new TestMapEditor();
    ed.addTerrainLayer();
    expect(ed.getUi().layer).toBe('terrain:1');
    ed.setTile(8);
    ed.drag([
      [0, 0],
      [1, 0],
    ]);
    expect(ed.terrain(0, 0, 1)).toBe(8);
    expect(ed.terrain(0, 0, 0)).toBe(1);
    ed.undoKey().undoKey();
    expect(ed.doc.map.layers).toHaveLength(1);
    expect(ed.getUi().layer).toBe('terrain:0');
  });
});
