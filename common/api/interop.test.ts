import { describe, expect, it } from 'vitest';
import { selectReverieFiles } from './interop';

const town = (root: string, base: string) => [
  `${root}static_dirs/assets/the_ville/matrix/maze_meta_info.json`,
  `${root}static_dirs/assets/the_ville/matrix/maze/arena_maze.csv`,
  `${root}static_dirs/assets/the_ville/matrix/special_blocks/arena_blocks.csv`,
  `${root}static_dirs/assets/the_ville/visuals/the_ville_jan7.json`,
  `${root}storage/${base}/reverie/meta.json`,
  `${root}storage/${base}/environment/0.json`,
  `${root}storage/${base}/environment/1.json`,
  `${root}storage/${base}/personas/Ann Lee/bootstrap_memory/scratch.json`,
  `${root}storage/${base}/personas/Ann Lee/bootstrap_memory/spatial_memory.json`,
  `${root}storage/${base}/personas/Ann Lee/bootstrap_memory/associative_memory/nodes.json`,
];

describe('selectReverieFiles', () => {
  it('finds the frontend_server folder inside a whole checkout, ignoring look-alikes', () => {
    const picked = [
      ...town('generative_agents/environment/frontend_server/', 'base_the_ville_n25'),
      // A compressed run and a backend copy hold similar names; neither is the town root.
      'generative_agents/environment/frontend_server/compressed_storage/run1/reverie/meta.json',
      'generative_agents/reverie/backend_server/README.md',
    ];
    const s = selectReverieFiles(picked);
    expect(s.root).toBe('generative_agents/environment/frontend_server/');
    expect(s.bases).toEqual(['base_the_ville_n25']);
    expect(s.files.map((f) => f.name)).toEqual([
      'static_dirs/assets/the_ville/matrix/maze_meta_info.json',
      'static_dirs/assets/the_ville/matrix/maze/arena_maze.csv',
      'static_dirs/assets/the_ville/matrix/special_blocks/arena_blocks.csv',
      'storage/base_the_ville_n25/reverie/meta.json',
      'storage/base_the_ville_n25/environment/0.json',
      'storage/base_the_ville_n25/personas/Ann Lee/bootstrap_memory/scratch.json',
      'storage/base_the_ville_n25/personas/Ann Lee/bootstrap_memory/spatial_memory.json',
    ]);
    expect(s.files[0].path).toBe(picked[0]);
  });

  it('takes the picked folder itself as the root, and Windows separators', () => {
    const s = selectReverieFiles(town('', 'base_x').map((p) => p.replace(/\//g, '\\')));
    expect(s).toMatchObject({ root: '', base: 'base_x', personas: ['Ann Lee'] });
    expect(s.files).toHaveLength(7);
  });

  it('chooses the asked base, else the default, else the first', () => {
    const both = [...town('f/', 'base_b'), ...town('f/', 'base_a')];
    expect(selectReverieFiles(both).base).toBe('base_a');
    expect(selectReverieFiles(both, 'base_b').base).toBe('base_b');
    expect(selectReverieFiles(both, 'nope').base).toBe('base_a');
    expect(selectReverieFiles([...both, ...town('f/', 'base_the_ville_n25')]).base).toBe(
      'base_the_ville_n25',
    );
    expect(selectReverieFiles(['photos/cat.jpg'])).toEqual({
      root: '',
      bases: [],
      base: null,
      files: [],
      personas: [],
    });
  });
});
