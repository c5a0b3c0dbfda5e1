import { describe, expect, it } from 'vitest';
import { TestMapEditor } from './TestMapEditor';
import { personaSchema, type Persona } from '../../../../common/scenario/schema';
import { checkConsistency } from '../../../../common/scenario/validate';
import { nodeBounds } from '../tree';

/** Ann Lee, living at `livingArea`, knowing no other place (the schema fills the defaults). */
function personaAt(livingArea: string): Persona {
  return personaSchema.parse({
    id: 'ann',
    firstName: 'Ann',
    lastName: 'Lee',
    age: 30,
    innate: '',
    learned: '',
    currently: '',
    lifestyle: '',
    livingArea,
    seed: '',
  });
}

/** A town with a sector (tiles 0..9 × 0..9) holding one arena (2..5 × 2..5). */
function townWithRoom() {
  const ed = new TestMapEditor();
  ed.setLayer('sector');
  ed.key('r').drag([
    [0, 0],
    [9, 9],
  ]);
  ed.setLayer('arena');
  ed.drag([
    [2, 2],
    [5, 5],
  ]);
  return ed;
}

describe('tree ↔ map sync', () => {
  it('painting a new zone creates a named tree node in the same undo step', () => {
    const ed = new TestMapEditor();
    ed.setLayer('sector');
    ed.drag([
      [1, 1],
      [3, 1],
    ]);
    expect(ed.doc.tree.sectors).toEqual([
      { zone: 1, name: 'New sector 1', description: '', arenas: [] },
    ]);
    expect(ed.at(ed.doc.map.zones.sector, 2, 1)).toBe(1);
    expect(ed.getUi().selectedNode).toEqual({ kind: 'sector', zone: 1 });
    // The brush keeps painting that zone; a second stroke grows it.
    ed.drag([
      [1, 2],
      [1, 2],
    ]);
    expect(ed.doc.tree.sectors).toHaveLength(1);
    ed.undoKey().undoKey();
    expect(ed.doc.tree.sectors).toEqual([]);
    expect(ed.doc.map.zones.sector.every((z) => z === 0)).toBe(true);
  });

  it('a new arena goes under the sector it is painted in', () => {
    const ed = townWithRoom();
    expect(ed.doc.tree.sectors[0].arenas.map((a) => a.name)).toEqual(['New arena 1']);
    expect(nodeBounds(ed.doc, { kind: 'arena', zone: 1 })).toEqual({
      tiles: 16,
      x0: 2,
      y0: 2,
      x1: 5,
      y1: 5,
    });
  });

  it('a new arena outside any sector is refused with a message', () => {
    const ed = new TestMapEditor();
    ed.setLayer('arena');
    ed.drag([
      [1, 1],
      [2, 1],
    ]);
    expect(ed.doc.tree.sectors).toEqual([]);
    expect(ed.memory.messages.at(-1)).toMatch(/inside a sector/);
    expect(ed.memory.history.getCanUndo()).toBe(false);
  });

  it('cancelling the stroke that created a zone removes the node too', () => {
    const ed = new TestMapEditor();
    ed.setLayer('sector');
    ed.pointerDownAt(1, 1).pointerMoveTo(4, 1).key('Escape');
    expect(ed.doc.tree.sectors).toEqual([]);
    expect(ed.getUi().zone.sector).toBe('new');
  });

  it('deleting a sector clears its tiles and its arenas’ tiles in one step', () => {
    const ed = townWithRoom();
    ed.setLayer('object');
    ed.click(3, 3);
    expect(ed.doc.tree.sectors[0].arenas[0].objects[0].name).toBe('New object 1');
    const before = ed.doc;
    ed.deleteNode({ kind: 'sector', zone: 1 });
    expect(ed.doc.tree.sectors).toEqual([]);
    for (const kind of ['sector', 'arena', 'object'] as const)
      expect(ed.doc.map.zones[kind].every((z) => z === 0)).toBe(true);
    ed.undoKey();
    expect(ed.doc.tree).toEqual(before.tree);
    expect(ed.doc.map.zones).toEqual(before.map.zones);
  });

  it('renaming a node rewrites persona addresses that go through it', () => {
    const ed = townWithRoom();
    ed.memory.write(
      {
        ...ed.doc,
        personas: [
          {
            ...personaAt('Test town:New sector 1:New arena 1'),
            knownPlaces: ['Test town:New sector 1'],
          },
        ],
      },
      'ignore',
      'load',
    );
    ed.renameNode({ kind: 'sector', zone: 1 }, 'Oak house');
    ed.renameNode({ kind: 'arena', zone: 1 }, 'Bedroom');
    expect(ed.doc.personas[0].livingArea).toBe('Test town:Oak house:Bedroom');
    expect(ed.doc.personas[0].knownPlaces).toEqual(['Test town:Oak house']);
    ed.undoKey();
    expect(ed.doc.personas[0].livingArea).toBe('Test town:Oak house:New arena 1');
  });

  it('deleting a place drops the known places through it, and refuses to delete a home', () => {
    const ed = townWithRoom();
    ed.addNode('arena', 1, 'Kitchen');
    ed.memory.write(
      {
        ...ed.doc,
        personas: [
          {
            ...personaAt('Test town:New sector 1:New arena 1'),
            knownPlaces: ['Test town:New sector 1:Kitchen', 'Test town:New sector 1'],
          },
        ],
      },
      'ignore',
      'load',
    );
    ed.deleteNode({ kind: 'arena', zone: 2 });
    expect(ed.doc.tree.sectors[0].arenas.map((a) => a.name)).toEqual(['New arena 1']);
    expect(ed.doc.personas[0].knownPlaces).toEqual(['Test town:New sector 1']);
    expect(checkConsistency(ed.doc).filter((i) => i.severity !== 'warning')).toEqual([]);
    ed.undoKey();
    expect(ed.doc.personas[0].knownPlaces).toHaveLength(2);

    // The sector holds Ann's home: nothing is deleted and the user is told whose home it is.
    const before = ed.doc;
    ed.deleteNode({ kind: 'sector', zone: 1 });
    expect(ed.doc).toBe(before);
    expect(ed.memory.messages.at(-1)).toMatch(/"New sector 1" was not deleted: .*home of Ann Lee/);
  });

  it('reorders siblings, edits object state, and undoes each', () => {
    const ed = townWithRoom();
    ed.addNode('arena', 1, 'Kitchen');
    ed.moveNode({ kind: 'arena', zone: 2 }, -1);
    expect(ed.doc.tree.sectors[0].arenas.map((a) => a.name)).toEqual(['Kitchen', 'New arena 1']);
    ed.moveNode({ kind: 'arena', zone: 2 }, -1); // already first: no step
    ed.undoKey();
    expect(ed.doc.tree.sectors[0].arenas.map((a) => a.name)).toEqual(['New arena 1', 'Kitchen']);
    const obj = ed.addNode('object', 2, 'Stove')!;
    ed.updateNode({ kind: 'object', zone: obj }, { defaultState: 'off', description: 'gas' });
    expect(ed.doc.tree.sectors[0].arenas[1].objects[0]).toEqual({
      zone: obj,
      name: 'Stove',
      description: 'gas',
      defaultState: 'off',
    });
    ed.undoKey();
    expect(ed.doc.tree.sectors[0].arenas[1].objects[0].defaultState).toBe('idle');
  });

  it('an ignored write survives undo of an earlier recorded step', () => {
    const ed = new TestMapEditor();
    ed.setTile(3);
    ed.drag([
      [0, 0],
      [1, 0],
    ]);
    ed.memory.write({ ...ed.doc, description: 'imported' }, 'ignore', 'load');
    ed.undoKey();
    expect(ed.doc.description).toBe('imported');
    expect(ed.terrain(0, 0)).toBe(1);
  });
});
