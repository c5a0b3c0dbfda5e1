import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmptyScenario } from '../../../common/scenario/create';
import { ScenarioError } from '../../../common/scenario/errors';
import { LibraryDb } from './db';
import { ScenarioRepository } from './repository';
import { smallTown } from '../test/fixtures';

let db: LibraryDb;
let repo: ScenarioRepository;
let clock: number;

beforeEach(() => {
  db = new LibraryDb(`test-${Math.random()}`);
  clock = 1_000;
  // Each call advances the clock, so order is deterministic without sleeping.
  repo = new ScenarioRepository(db, { now: () => (clock += 10) });
});
afterEach(async () => {
  await db.delete();
});

describe('ScenarioRepository', () => {
  it('creates, reads back, saves and deletes a scenario', async () => {
    const created = await repo.create(smallTown());
    expect(created.id).toBe('small-town');
    const read = await repo.get('small-town');
    expect(read.ok && read.scenario).toEqual(smallTown());

    await repo.save({ ...created, description: 'Changed' });
    const again = await repo.get('small-town');
    expect(again.ok && again.scenario.description).toBe('Changed');

    const row = await repo.delete('small-town');
    expect(row?.name).toBe('Small Town');
    expect((await repo.list()).entries).toEqual([]);

    await repo.restore(row!);
    expect((await repo.list()).entries.map((e) => e.id)).toEqual(['small-town']);
  });

  it('gives an imported scenario a fresh id instead of overwriting one with the same id', async () => {
    await repo.create(smallTown());
    const second = await repo.create(smallTown());
    expect(second.id).not.toBe('small-town');
    expect(second.id).toMatch(/^small-town-[a-z0-9]{6}$/);
    expect((await repo.list()).total).toBe(2);
  });

  it('refuses to store an invalid document, so what is on disk always reads back', async () => {
    const created = await repo.create(smallTown());
    await expect(repo.save({ ...created, name: '   ' })).rejects.toBeInstanceOf(ScenarioError);
    const read = await repo.get(created.id);
    expect(read.ok && read.scenario.name).toBe('Small Town');
  });

  it('lists the most recently opened first', async () => {
    await repo.create(createEmptyScenario('a', 'Alpha'));
    await repo.create(createEmptyScenario('b', 'Beta'));
    await repo.create(createEmptyScenario('c', 'Gamma'));
    expect((await repo.list()).entries.map((e) => e.id)).toEqual(['c', 'b', 'a']);
    await repo.open('a');
    expect((await repo.list()).entries.map((e) => e.id)).toEqual(['a', 'c', 'b']);
  });

  it('summarises each entry with its size and persona count', async () => {
    await repo.create(smallTown());
    const [entry] = (await repo.list()).entries;
    expect(entry).toMatchObject({ name: 'Small Town', personas: 1, width: 6, height: 4 });
  });

  it('duplicates under a new id and a "copy" name, and renames without touching the id', async () => {
    await repo.create(smallTown());
    const copy = await repo.duplicate('small-town');
    expect(copy.ok).toBe(true);
    if (!copy.ok) return;
    expect(copy.scenario.name).toBe('Small Town copy');
    expect(copy.scenario.personas).toEqual(smallTown().personas);
    const renamed = await repo.rename(copy.scenario.id, '  Mill Row ');
    expect(renamed.name).toBe('Mill Row');
    const read = await repo.get(copy.scenario.id);
    expect(read.ok && read.scenario.name).toBe('Mill Row');
    // The town's name is its world's name: the world and its addresses follow the rename.
    expect(read.ok && read.scenario.tree.world).toBe('Mill Row');
    expect(read.ok && read.scenario.personas[0].livingArea).toMatch(/^Mill Row:/);
  });

  it('searches names case- and accent-insensitively, word by word', async () => {
    await repo.create(createEmptyScenario('w', 'Willow Bend'));
    await repo.create(createEmptyScenario('c', 'Café Row'));
    await repo.create(createEmptyScenario('o', 'Oak Hollow'));
    const names = async (q: string) => (await repo.search(q)).entries.map((e) => e.name).sort();
    expect(await names('wil bend')).toEqual(['Willow Bend']);
    expect(await names('CAFE')).toEqual(['Café Row']);
    expect(await names('ow')).toEqual(['Café Row', 'Oak Hollow', 'Willow Bend']);
    expect(await names('')).toHaveLength(3);
    expect((await repo.search('zzz')).total).toBe(3);
  });

  it('reports corrupt rows with their issues instead of throwing', async () => {
    await repo.create(smallTown());
    const broken = {
      ...smallTown('broken', 'Broken'),
      personas: [{ ...smallTown().personas[0], age: -4 }],
    };
    await db.scenarios.put({
      id: 'broken',
      name: 'Broken',
      updatedAt: 1,
      openedAt: 1,
      doc: broken,
    });
    await db.scenarios.put({
      id: 'junk',
      name: 'Junk',
      updatedAt: 1,
      openedAt: 1,
      doc: 'not json at all',
    });
    // A row whose envelope itself is wrong (e.g. written by a foreign tool).
    await db.scenarios.put({
      id: 'weird',
      name: 42,
      updatedAt: 'x',
      openedAt: 1,
      doc: {},
    } as never);

    const listing = await repo.list();
    expect(listing.entries.map((e) => e.id)).toEqual(['small-town']);
    expect(listing.corrupt.map((c) => c.id)).toEqual(['broken', 'junk', 'weird']);
    const broke = listing.corrupt.find((c) => c.id === 'broken')!;
    expect(broke.issues).toEqual([expect.objectContaining({ path: 'personas[0].age' })]);

    const read = await repo.get('junk');
    expect(read.ok).toBe(false);
    expect(await repo.open('weird')).toMatchObject({ ok: false });
    // Corrupt rows can still be deleted.
    expect(await repo.delete('junk')).toBeDefined();
  });

  it('reports a document whose id disagrees with its row key', async () => {
    await db.scenarios.put({
      id: 'left',
      name: 'X',
      updatedAt: 1,
      openedAt: 1,
      doc: smallTown('right'),
    });
    const read = await repo.get('left');
    expect(read).toMatchObject({ ok: false, issues: [{ path: 'id' }] });
  });

  it('reports a missing id as an issue', async () => {
    expect(await repo.get('nope')).toMatchObject({ ok: false });
  });
});
