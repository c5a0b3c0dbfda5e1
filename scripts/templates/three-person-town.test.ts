import {
  cellsWhere,
  committedTemplateFiles,
  loadTemplateFiles,
  reachable,
} from './template-test-support';
import { describe, expect, it } from 'vitest';
import { joinScenario, validateScenarioFiles } from '../../common/scenario/split';
import { validateScenario } from '../../common/scenario/validate';
import { arenaAddresses, resolveAddress } from '../../common/scenario/address';
import { seedClauses } from '../../common/scenario/seed';
import { TILES } from '../art/tiles';
import { TEMPLATE_ID, willowBendFiles } from './three-person-town';

const committed = committedTemplateFiles(TEMPLATE_ID);
const load = () => loadTemplateFiles(committed);

describe('Willow Bend template', () => {
  it('has exactly the unpacked pack files, and they validate with no errors', () => {
    expect(Object.keys(committed).sort()).toEqual([
      'manifest.json',
      'map.json',
      'personas.json',
      'scenario.json',
      'tree.json',
    ]);
    const manifest = JSON.parse(committed['manifest.json']) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      format: 'simulacra-pack',
      formatVersion: 1,
      schemaVersion: 1,
      id: TEMPLATE_ID,
      createdBy: 'Simulacra Studio',
    });
    const result = validateScenario(joinScenario(committed));
    expect(result.issues).toEqual([]);
    expect(validateScenarioFiles(committed).issues).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('is up to date: regenerating writes byte-identical files', () => {
    expect(willowBendFiles()).toEqual(committed);
  });

  it('writes each map grid one map row per line', () => {
    const s = load();
    const rowLines = committed['map.json']
      .split('\n')
      .filter((l) => /^\s*[\d ,]+,?$/.test(l) && l.includes(','));
    // 2 layers + collision + 4 zone grids, one line per map row each.
    expect(rowLines.length).toBe(7 * s.map.height);
  });

  it('paints only tiles the tileset has, and blocks every wall', () => {
    const s = load();
    for (const layer of s.map.layers)
      expect(Math.max(...layer.tiles)).toBeLessThanOrEqual(TILES.length);
    const wallIndices = new Set(
      TILES.filter((t) => t.key === 'wallTop' || t.key === 'wallBrick' || t.key === 'window').map(
        (t) => t.index,
      ),
    );
    s.map.layers[0].tiles.forEach((t, i) => {
      if (wallIndices.has(t)) expect(s.map.collision[i], `wall at cell ${i}`).toBe(1);
    });
  });

  it('gives every arena tiles on the arena grid, inside its sector', () => {
    const s = load();
    for (const sector of s.tree.sectors) {
      for (const arena of sector.arenas) {
        const cells = cellsWhere(s.map.zones.arena, arena.zone);
        expect(cells.length, `${sector.name}:${arena.name}`).toBeGreaterThan(0);
        for (const i of cells) expect(s.map.zones.sector[i]).toBe(sector.zone);
      }
    }
  });

  it('keeps every object inside its arena, on walkable tiles', () => {
    const s = load();
    for (const sector of s.tree.sectors) {
      for (const arena of sector.arenas) {
        for (const object of arena.objects) {
          const cells = cellsWhere(s.map.zones.object, object.zone);
          expect(cells.length, object.name).toBeGreaterThan(0);
          for (const i of cells) {
            expect(s.map.zones.arena[i], `${arena.name}:${object.name}`).toBe(arena.zone);
            expect(s.map.collision[i], `${arena.name}:${object.name}`).toBe(0);
          }
          expect(object.defaultState.length).toBeGreaterThan(0);
        }
      }
    }
  });

  it("reaches every persona's home, and every walkable arena and object, from every spawn", () => {
    const s = load();
    for (const p of s.personas) {
      expect(p.spawn, p.id).not.toBeNull();
      const spawnCells = cellsWhere(s.map.zones.spawn, p.spawn!);
      expect(spawnCells.length).toBeGreaterThan(0);
      const home = resolveAddress(s.tree, p.livingArea)!.arena!;
      // The spawn lies in the persona's own home arena.
      for (const i of spawnCells) expect(s.map.zones.arena[i]).toBe(home.zone);
      const seen = reachable(s, spawnCells);
      for (const sector of s.tree.sectors) {
        for (const arena of sector.arenas) {
          const walkable = cellsWhere(s.map.zones.arena, arena.zone).filter(
            (i) => s.map.collision[i] === 0,
          );
          if (walkable.length === 0) continue;
          expect(
            walkable.some((i) => seen.has(i)),
            `${p.id} → ${sector.name}:${arena.name}`,
          ).toBe(true);
          for (const object of arena.objects) {
            const cells = cellsWhere(s.map.zones.object, object.zone);
            expect(
              cells.some((i) => seen.has(i)),
              `${p.id} → ${arena.name}:${object.name}`,
            ).toBe(true);
          }
        }
      }
    }
  });

  it('has three rich, connected personas', () => {
    const s = load();
    expect(s.personas).toHaveLength(3);
    const names = s.personas.map((p) => `${p.firstName} ${p.lastName}`);
    const arenas = new Set(arenaAddresses(s.tree));
    for (const p of s.personas) {
      for (const field of [p.innate, p.learned, p.currently, p.lifestyle, p.dailyPlanRequirement])
        expect(field.length).toBeGreaterThan(20);
      const clauses = seedClauses(p.seed);
      expect(clauses.length).toBeGreaterThanOrEqual(6);
      expect(clauses.length).toBeLessThanOrEqual(10);
      // Everyone knows both of the others by name.
      for (const other of names.filter((n) => n !== `${p.firstName} ${p.lastName}`))
        expect(p.seed).toContain(other);
      expect(arenas.has(p.livingArea)).toBe(true);
      expect(p.knownPlaces).toContain(p.livingArea);
      expect(new Set(p.knownPlaces).size).toBe(p.knownPlaces.length);
      expect([p.visionRadius, p.attentionBandwidth, p.retention]).toEqual([8, 8, 8]);
      expect(p.sprite).toMatch(/^villager-[1-8]$/);
    }
    expect(new Set(s.personas.map((p) => p.sprite)).size).toBe(3);
  });
});
