/**
 * Names, not ids, where a person reads them (issue 25, item 6): conversation titles, "talking
 * with", the event log's kinds and the resident's lines.
 */
import { describe, expect, it } from 'vitest';
import { eventEntries } from './eventEntries';
import { conversationTitle, kindLabel, nameOf, namesById } from './names';

const onMap = [
  { id: 'tobias-mensah', name: 'Tobias Mensah' },
  { id: 'agnes-whitlow', name: 'Agnes Whitlow' },
];
const tobias = {
  id: 'tobias-mensah',
  name: 'Tobias Mensah',
  // Someone he knows of who is not on the map right now.
  relationships: [
    {
      agentId: 'marisol-okafor',
      name: 'Marisol Okafor',
      conversations: 1,
      relationship: null,
      feeling: null,
    },
  ],
};

describe('names in the run view', () => {
  it('titles a conversation with the residents’ names', () => {
    const names = namesById(onMap, tobias);
    expect(conversationTitle(['tobias-mensah', 'marisol-okafor'], names)).toBe(
      'Tobias Mensah & Marisol Okafor',
    );
    expect(conversationTitle(['agnes-whitlow', 'tobias-mensah'], names)).toBe(
      'Agnes Whitlow & Tobias Mensah',
    );
    expect(nameOf('agnes-whitlow', names)).toBe('Agnes Whitlow');
    // Nobody by that id: the id is all there is to show.
    expect(nameOf('gone-person', names)).toBe('gone-person');
  });

  it('reads log and intervention kinds as words', () => {
    expect(kindLabel('setObjectState')).toBe('Set object state');
    expect(kindLabel('whisper')).toBe('Whisper');
    expect(kindLabel('rememberedInterview')).toBe('Interview (remembered)');
    expect(kindLabel('fork')).toBe('Fork');
    expect(kindLabel('step failed')).toBe('Step failed');
    expect(kindLabel('interview (remembered)')).toBe('Interview (remembered)');
    expect(kindLabel('someNewKind')).toBe('Some new kind');
  });

  it('describes the resident’s lines with names instead of raw records', () => {
    const names = new Map(onMap.map((a) => [a.id, a.name]));
    const entries = eventEntries(
      [
        {
          type: 'join',
          step: 4,
          name: 'join',
          args: { mode: 'new', firstName: 'Ada', lastName: 'Lovell', description: '' },
          ok: true,
          result: { agentId: 'resident-ada', frame: { name: 'Ada Lovell' } },
          now: true,
        },
        {
          type: 'say',
          step: 5,
          name: 'say',
          args: { agentId: 'agnes-whitlow', toAgentId: 'tobias-mensah', text: 'Morning!' },
          ok: true,
          now: true,
        },
        {
          // Ada is off the map by now (not in `names`): the log's join line still names her.
          type: 'leave',
          step: 5,
          name: 'leave',
          args: { agentId: 'resident-ada' },
          ok: true,
          now: true,
        },
        {
          type: 'join',
          step: 6,
          name: 'join',
          args: { mode: 'takeover', agentId: 'tobias-mensah' },
          ok: false,
          error: 'already played',
          now: true,
        },
      ],
      names,
    );
    expect(entries).toEqual([
      { step: 4, kind: 'join', text: 'Ada Lovell joined the town', ok: true },
      { step: 5, kind: 'say', text: 'Agnes Whitlow to Tobias Mensah: “Morning!”', ok: true },
      { step: 5, kind: 'leave', text: 'you stopped playing Ada Lovell', ok: true },
      {
        step: 6,
        kind: 'join',
        text: 'you play Tobias Mensah (refused: already played)',
        ok: false,
      },
    ]);
    expect(entries.map((e) => kindLabel(e.kind))).toEqual(['Joined', 'Said', 'Left', 'Joined']);
  });
});
