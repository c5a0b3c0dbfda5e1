import { describe, expect, it } from 'vitest';
import { studioSettingsSchema } from '../../../common/api/settings';
import { fromDraft, toDraft } from './form';

const defaults = studioSettingsSchema.parse({});

describe('settings form draft', () => {
  it('round-trips settings, empty text meaning automatic / default / none', () => {
    expect(toDraft(defaults)).toEqual({
      dataFolder: '',
      threads: '',
      gpu: true,
      contextSize: '',
      snapshotEverySteps: '60',
      chatModelPath: '',
      embeddingModelPath: '',
      modelServers: [],
    });
    const s = {
      dataFolder: '/data/sim',
      threads: 2,
      gpu: false,
      contextSize: 8192,
      snapshotEverySteps: 5,
      chatModelPath: '/m/q.gguf',
      embeddingModelPath: '/m/minilm',
      modelServers: [
        {
          id: 'lab-box',
          name: 'Lab box',
          baseUrl: 'http://127.0.0.1:8080/v1',
          kind: 'llama.cpp' as const,
          contextTokens: null,
          timeoutSeconds: 300,
          parallel: 4,
        },
      ],
    };
    expect(fromDraft(toDraft(s))).toEqual({ ok: true, settings: s });
    expect(fromDraft(toDraft(defaults))).toEqual({ ok: true, settings: defaults });
  });

  it('trims text fields', () => {
    const r = fromDraft({ ...toDraft(defaults), dataFolder: '  /x  ', threads: ' 3 ' });
    expect(r).toEqual({ ok: true, settings: { ...defaults, dataFolder: '/x', threads: 3 } });
  });

  it('says what is wrong with each bad field', () => {
    const r = fromDraft({ ...toDraft(defaults), threads: '2.5', dataFolder: 'relative' });
    expect(r).toEqual({
      ok: false,
      errors: {
        threads: 'a whole number from 1 to 64, or empty for automatic',
        dataFolder: 'expected an absolute folder path',
      },
    });
    expect(fromDraft({ ...toDraft(defaults), threads: '0' })).toMatchObject({ ok: false });
    expect(fromDraft({ ...toDraft(defaults), threads: 'lots' })).toMatchObject({ ok: false });
    expect(
      fromDraft({ ...toDraft(defaults), contextSize: '100', snapshotEverySteps: '0' }),
    ).toEqual({
      ok: false,
      errors: {
        contextSize: 'a whole number of tokens from 256 to 1048576, or empty for automatic',
        snapshotEverySteps: 'a whole number of steps from 1 to 8640',
      },
    });
  });
});
