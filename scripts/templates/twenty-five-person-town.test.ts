import { existsSync, readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import {
  cellsWhere,
  committedTemplateFiles,
  loadTemplateFiles,
  reachable,
  templateDir,
} from './template-test-support';
import { describe, expect, it } from 'vitest';
import { joinScenario, validateScenarioFiles } from '../../common/scenario/split';
import { validateScenario } from '../../common/scenario/validate';
import { arenaAddresses, resolveAddress } from '../../common/scenario/address';
import { seedClauses } from '../../common/scenario/seed';
import { readScenarioFolder } from '../../main/packs/folder';
import { relationships } from '../../renderer/src/personas/model';
import { CANDIDATE, PARTY_HOST, TEMPLATE_ID, harrowQuayFiles } from './twenty-five-person-town';
import { THUMB_SCALE, renderThumbnail, templateIds, thumbnailPath } from './thumbnail';

const committed = committedTemplateFiles(TEMPLATE_ID);
const load = () => loadTemplateFiles(committed);

describe('Harrow Quay template (25 people)', () => {
  it('has exactly the unpacked pack files; they validate, and the folder reader has no warnings', async () => {
    expect(Object.keys(committed).sort()).toEqual([
      'manifest.json',
      'map.json',
      'personas.json',
      'scenario.json',
      'tree.json',
    ]);
    expect(validateScenario(joinScenario(committed)).issues).toEqual([]);
    expect(validateScenarioFiles(committed).issues).toEqual([]);
    const read = await readScenarioFolder(templateDir(TEMPLATE_ID));
    expect(read.warnings).toEqual([]);
  });

  it('is up to date: regenerating writes byte-identical files', () => {
    expect(harrowQuayFiles()).toEqual(committed);
  });

  it('is a large town with the public places the experiments need', () => {
    const s = load();
    expect(s.map.width).toBeGreaterThanOrEqual(80);
    expect(s.map.height).toBeGreaterThanOrEqual(56);
    const sectors = s.tree.sectors.map((x) => x.name);
    for (const place of [
      'Saltmarsh College',
      'Town Hall',
      'Holloway Pharmacy',
      "Varga's Grocer",
      'Amsel Books',
      'The Gull and Lantern',
      'Gull Park',
      'The Quay',
    ])
      expect(sectors).toContain(place);
  });

  it('keeps every object inside its arena and every arena inside its sector', () => {
    const s = load();
    for (const sector of s.tree.sectors) {
      for (const arena of sector.arenas) {
        const cells = cellsWhere(s.map.zones.arena, arena.zone);
        expect(cells.length, `${sector.name}:${arena.name}`).toBeGreaterThan(0);
        for (const i of cells) expect(s.map.zones.sector[i]).toBe(sector.zone);
        for (const object of arena.objects) {
          const oc = cellsWhere(s.map.zones.object, object.zone);
          expect(oc.length, object.name).toBeGreaterThan(0);
          for (const i of oc) {
            expect(s.map.zones.arena[i], `${arena.name}:${object.name}`).toBe(arena.zone);
            expect(s.map.collision[i], `${arena.name}:${object.name}`).toBe(0);
          }
        }
      }
    }
  });

  it("reaches every persona's home, and every arena and object, from every spawn", () => {
    const s = load();
    // One flood fill suffices when all spawns share a component; check that and its coverage.
    const first = cellsWhere(s.map.zones.spawn, s.personas[0].spawn!);
    const seen = reachable(s, first);
    for (const p of s.personas) {
      expect(p.spawn, p.id).not.toBeNull();
      const spawnCells = cellsWhere(s.map.zones.spawn, p.spawn!);
      expect(spawnCells, p.id).toHaveLength(1);
      const home = resolveAddress(s.tree, p.livingArea)!.arena!;
      expect(s.map.zones.arena[spawnCells[0]], p.id).toBe(home.zone);
      expect(s.map.collision[spawnCells[0]], p.id).toBe(0);
      expect(seen.has(spawnCells[0]), `${p.id} is connected`).toBe(true);
    }
    for (const sector of s.tree.sectors) {
      for (const arena of sector.arenas) {
        const cells = cellsWhere(s.map.zones.arena, arena.zone);
        expect(
          cells.some((i) => seen.has(i)),
          `${sector.name}:${arena.name}`,
        ).toBe(true);
        for (const object of arena.objects)
          expect(
            cellsWhere(s.map.zones.object, object.zone).some((i) => seen.has(i)),
            `${arena.name}:${object.name}`,
          ).toBe(true);
      }
    }
  });

  it('has 25 rich personas: families, coworkers, strangers, a crush, a party and a candidate', () => {
    const s = load();
    expect(s.personas).toHaveLength(25);
    expect(new Set(s.personas.map((p) => p.id)).size).toBe(25);
    const arenas = new Set(arenaAddresses(s.tree));
    for (const p of s.personas) {
      for (const field of [p.innate, p.learned, p.currently, p.lifestyle, p.dailyPlanRequirement])
        expect(field.length, p.id).toBeGreaterThan(20);
      expect(seedClauses(p.seed).length, p.id).toBeGreaterThanOrEqual(4);
      expect(arenas.has(p.livingArea), p.id).toBe(true);
      expect(p.knownPlaces).toContain(p.livingArea);
      expect(new Set(p.knownPlaces).size).toBe(p.knownPlaces.length);
      expect(p.sprite).toMatch(/^villager-[1-8]$/);
    }
    // Families live together: at least three homes hold a parent and a child.
    const byHome = new Map<string, number>();
    for (const p of s.personas) {
      const home = p.livingArea.split(':')[1];
      byHome.set(home, (byHome.get(home) ?? 0) + 1);
    }
    expect([...byHome.values()].filter((n) => n >= 3).length).toBeGreaterThanOrEqual(4);

    const host = s.personas.find((p) => p.id === PARTY_HOST)!;
    expect(host.seed).toMatch(/party at The Gull and Lantern on Friday 18 October from 7pm/);
    const candidate = s.personas.find((p) => p.id === CANDIDATE)!;
    expect(candidate.seed).toMatch(/running for mayor/);
    expect(s.personas.some((p) => /has a crush on/.test(p.seed))).toBe(true);
  });

  it('has a relationship graph with the host and candidate at its centre, and strangers', () => {
    const s = load();
    const graph = relationships(s.personas);
    const mentionedBy = (id: string) => graph.filter((r) => r.to.includes(id)).length;
    expect(graph.find((r) => r.from === PARTY_HOST)!.to.length).toBeGreaterThanOrEqual(4);
    expect(mentionedBy(PARTY_HOST)).toBeGreaterThanOrEqual(3);
    expect(mentionedBy(CANDIDATE)).toBeGreaterThanOrEqual(5);
    // Some people know nobody and nobody knows them: the information has to find them.
    const strangers = graph.filter((r) => r.to.length === 0 && mentionedBy(r.from) === 0);
    expect(strangers.map((r) => r.from).sort()).toEqual([
      'kit-sorensen',
      'nadia-firth',
      'silas-quarrie',
    ]);
  });

  it('ships an up-to-date 4 px/tile thumbnail for every template', async () => {
    for (const id of templateIds()) {
      const file = thumbnailPath(id);
      expect(existsSync(file), file).toBe(true);
      const png = PNG.sync.read(readFileSync(file));
      const folder = templateDir(id);
      const { scenario } = await readScenarioFolder(folder);
      expect([png.width, png.height]).toEqual([
        scenario.map.width * THUMB_SCALE,
        scenario.map.height * THUMB_SCALE,
      ]);
      expect(Buffer.from(png.data).equals(Buffer.from(renderThumbnail(scenario).data)), id).toBe(
        true,
      );
    }
  });
});
