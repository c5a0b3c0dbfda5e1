/**
 * How long loading a reference-sized town takes: a 140×100 map (the Ville's size) with every
 * layer, 60 arenas and 25 personas, parsed from JSON and validated. This runs on every pack
 * import and every library read, so it must stay well under a frame budget's multiple.
 */
import { median, reportBench } from '../bench';
import { createEmptyScenario } from './create';
import { personaSchema } from './schema';
import { validateScenario } from './validate';

const W = 140;
const H = 100;
const town = createEmptyScenario('bench-town', 'Bench Town', W, H);
town.map.layers.push({
  name: 'Decor',
  visible: true,
  tiles: town.map.layers[0].tiles.map((_, i) => (i % 7 === 0 ? 5 : 0)),
});
for (let s = 0; s < 20; s++) {
  const arenas = [0, 1, 2].map((a) => ({
    zone: s * 3 + a + 1,
    name: `room ${a}`,
    description: '',
    objects: [{ zone: s * 3 + a + 1, name: 'bed', description: '', defaultState: 'idle' }],
  }));
  town.tree.sectors.push({ zone: s + 1, name: `house ${s}`, description: '', arenas });
  const x0 = (s % 10) * 14;
  const y0 = Math.floor(s / 10) * 50;
  for (let y = y0; y < y0 + 12; y++) {
    for (let x = x0; x < x0 + 12; x++) {
      town.map.zones.sector[y * W + x] = s + 1;
      town.map.zones.arena[y * W + x] = s * 3 + 1 + Math.floor((x - x0) / 4);
    }
  }
  town.map.zones.object[y0 * W + x0] = s * 3 + 1;
}
for (let p = 0; p < 25; p++) {
  // The schema fills the defaults (cognition, weights, sprite…), as a pack's reader would.
  town.personas.push(
    personaSchema.parse({
      id: `p${p}`,
      firstName: `Person${p}`,
      lastName: 'Bench',
      age: 30,
      innate: 'kind',
      learned: 'x'.repeat(400),
      currently: 'y'.repeat(200),
      lifestyle: 'sleeps at 11pm',
      dailyPlanRequirement: '',
      livingArea: `Bench Town:house ${p % 20}:room 0`,
      seed: 'a; b; c',
    }),
  );
}
const json = JSON.stringify(town);
const times: number[] = [];
for (let i = 0; i < 30; i++) {
  const t0 = performance.now();
  const result = validateScenario(JSON.parse(json));
  times.push(performance.now() - t0);
  if (!result.ok)
    throw new Error(
      `bench town is invalid: ${result.issues[0]?.path} ${result.issues[0]?.message}`,
    );
}
reportBench({
  name: 'scenario.load_140x100_25p',
  value: median(times),
  unit: 'ms',
  bytes: json.length,
});
