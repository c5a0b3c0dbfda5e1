import { describe, expect, it } from 'vitest';
import { createEmptyScenario } from './create';
import { personaSchema, type Scenario } from './schema';
import { ScenarioError } from './errors';
import { parseScenario } from './validate';
import {
  ScenarioFilesError,
  fileOfPath,
  joinScenario,
  parseScenarioFiles,
  splitScenario,
  validateScenarioFiles,
} from './split';

/** A small valid town: one sector/arena/object painted into the grids, one resident. */
function town(): Scenario {
  const s = createEmptyScenario('tiny', 'Tiny Town', 5, 3);
  s.map.zones.sector.fill(1, 0, 10);
  s.map.zones.arena.fill(1, 5, 10);
  s.map.zones.object[7] = 1;
  s.tree.sectors.push({
    zone: 1,
    name: 'cafe',
    description: '',
    arenas: [
      {
        zone: 1,
        name: 'counter',
        description: '',
        objects: [{ zone: 1, name: 'till', description: '', defaultState: 'idle' }],
      },
    ],
  });
  s.personas.push(
    personaSchema.parse({
      id: 'ana',
      firstName: 'Ana',
      age: 30,
      innate: 'warm',
      learned: 'Ana runs the cafe.',
      currently: 'opening the cafe',
      lifestyle: 'early riser',
      livingArea: 'Tiny Town:cafe:counter',
      seed: 'Ana runs the cafe',
    }),
  );
  return s;
}

function expectFilesError(fn: () => unknown): ScenarioFilesError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioFilesError);
    expect(err).toBeInstanceOf(ScenarioError);
    return err as ScenarioFilesError;
  }
  throw new Error('expected a ScenarioFilesError');
}

describe('splitScenario / joinScenario', () => {
  it('round-trips a scenario through its files', () => {
    const s = town();
    expect(parseScenario(joinScenario(splitScenario(s)))).toEqual(s);
  });

  it('writes the documented layout and manifest', () => {
    const files = splitScenario(town());
    expect(Object.keys(files).sort()).toEqual([
      'manifest.json',
      'map.json',
      'personas.json',
      'scenario.json',
      'tree.json',
    ]);
    expect(JSON.parse(files['manifest.json'])).toEqual({
      format: 'simulacra-pack',
      formatVersion: 1,
      schemaVersion: 1,
      id: 'tiny',
      name: 'Tiny Town',
      createdBy: 'Simulacra Studio',
    });
    expect(Object.keys(JSON.parse(files['scenario.json']))).toEqual([
      'id',
      'name',
      'description',
      'settings',
    ]);
    expect(Array.isArray(JSON.parse(files['personas.json']))).toBe(true);
  });

  it('is deterministic whatever the key order of the input', () => {
    const s = town();
    // Every object's keys in reverse order, at every depth.
    const reverseKeys = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reverseKeys)
        : v !== null && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reverseKeys(x)]),
            )
          : v;
    const reordered = reverseKeys(s) as Scenario;
    expect(Object.keys(reordered)[0]).toBe('settings');
    expect(splitScenario(reordered)).toEqual(splitScenario(s));
    expect(splitScenario(s)).toEqual(splitScenario(town()));
  });

  it('writes every grid one map row per line, as valid JSON', () => {
    const s = town();
    const text = splitScenario(s)['map.json'];
    expect(JSON.parse(text)).toEqual(s.map);
    expect(text).toContain('"collision": [\n    0,0,0,0,0,\n    0,0,0,0,0,\n    0,0,0,0,0\n  ]');
    expect(text).toContain(
      '"arena": [\n      0,0,0,0,0,\n      1,1,1,1,1,\n      0,0,0,0,0\n    ]',
    );
    expect(text).toContain('"tiles": [\n        1,1,1,1,1,');
    // Everything that is not a grid stays ordinary 2-space JSON.
    expect(text).toContain('  "tileset": {\n    "image": "builtin:town",');
  });

  it('reports invalid JSON with the file, line and column', () => {
    const files = splitScenario(town());
    files['map.json'] = files['map.json'].replace('"height": 3,', '"height": 3,,');
    const err = expectFilesError(() => joinScenario(files));
    expect(err.file).toBe('map.json');
    expect(err.message).toMatch(
      /^map\.json: invalid JSON at line 3 column 15: Expected double-quoted property name/,
    );
  });

  it('reports truncated JSON at its end', () => {
    const files = splitScenario(town());
    files['tree.json'] = '{\n  "world": "x",\n';
    expect(expectFilesError(() => joinScenario(files)).message).toMatch(
      /^tree\.json: invalid JSON at line 3 column 1: /,
    );
    files['tree.json'] = '';
    expect(expectFilesError(() => joinScenario(files)).message).toBe(
      'tree.json: invalid JSON at line 1 column 1: Unexpected end of JSON input',
    );
  });

  it('names every missing file', () => {
    const files: Record<string, string> = splitScenario(town());
    delete files['tree.json'];
    delete files['personas.json'];
    const err = expectFilesError(() => joinScenario(files));
    expect(err.message).toContain(
      'personas.json: missing: a scenario needs personas.json (the personas list)',
    );
    expect(err.message).toContain(
      'tree.json: missing: a scenario needs tree.json (the environment tree)',
    );
  });

  it('says when a file holds the wrong kind of JSON', () => {
    const files = splitScenario(town());
    files['personas.json'] = '{}';
    expect(expectFilesError(() => joinScenario(files)).message).toBe(
      'personas.json: expected a JSON array (the personas list), got object',
    );
  });

  it('refuses a manifest that is not ours or is from a newer pack format', () => {
    const files = splitScenario(town());
    files['manifest.json'] = JSON.stringify({
      ...JSON.parse(files['manifest.json']),
      formatVersion: 7,
    });
    expect(expectFilesError(() => joinScenario(files)).message).toMatch(
      /^manifest\.json → formatVersion: this pack was written by a newer Simulacra Studio \(pack format 7\)/,
    );
    files['manifest.json'] = '{"format":"zip"}';
    expect(expectFilesError(() => joinScenario(files)).message).toBe(
      'manifest.json → format: expected "simulacra-pack", got "zip"',
    );
  });
});

describe('validateScenarioFiles', () => {
  it('attributes schema issues to the file that holds them', () => {
    const files = splitScenario(town());
    const personas = JSON.parse(files['personas.json']);
    personas[0].age = 'thirty';
    files['personas.json'] = JSON.stringify(personas);
    const tree = JSON.parse(files['tree.json']);
    tree.sectors[0].arenas[0].name = '';
    files['tree.json'] = JSON.stringify(tree);
    const scenario = JSON.parse(files['scenario.json']);
    scenario.settings.startTime = 'tomorrow';
    files['scenario.json'] = JSON.stringify(scenario);
    const result = validateScenarioFiles(files);
    expect(result.ok).toBe(false);
    const where = result.issues.map((i) => `${i.file} → ${i.path}`);
    expect(where).toContain('personas.json → personas[0].age');
    expect(where).toContain('tree.json → tree.sectors[0].arenas[0].name');
    expect(where).toContain('scenario.json → settings.startTime');
    const err = expectFilesError(() => parseScenarioFiles(files, 'tiny.simpack'));
    expect(err.file).toBe('tiny.simpack');
    expect(err.message).toContain(
      'scenario.json → settings.startTime: expected a date-time like 2023-02-13T07:00:00',
    );
  });

  it('reports a newer schemaVersion against manifest.json', () => {
    const files = splitScenario(town());
    files['manifest.json'] = JSON.stringify({
      ...JSON.parse(files['manifest.json']),
      schemaVersion: 42,
    });
    const err = expectFilesError(() => parseScenarioFiles(files));
    expect(err.file).toBe('manifest.json');
    expect(err.message).toMatch(
      /^manifest\.json → schemaVersion: this scenario was saved by a newer Simulacra Studio \(format 42\)/,
    );
  });

  it('warns when the manifest disagrees with scenario.json', () => {
    const files = splitScenario(town());
    files['manifest.json'] = JSON.stringify({
      ...JSON.parse(files['manifest.json']),
      name: 'Old Name',
    });
    const result = validateScenarioFiles(files);
    expect(result.ok).toBe(true);
    expect(result.issues).toEqual([
      expect.objectContaining({ file: 'manifest.json', path: 'name', severity: 'warning' }),
    ]);
  });

  it('maps scenario paths to files', () => {
    expect(fileOfPath('map.zones.arena[3]')).toBe('map.json');
    expect(fileOfPath('tree')).toBe('tree.json');
    expect(fileOfPath('personas[0].seed')).toBe('personas.json');
    expect(fileOfPath('settings.seed')).toBe('scenario.json');
    expect(fileOfPath('schemaVersion')).toBe('manifest.json');
  });
});
