/**
 * Words a person reads in the run view where the engine has ids: people's names for their ids
 * (conversation titles, "talking with"), and log and intervention kinds in words ("Set object
 * state", not "setObjectState").
 */
import type { AgentDetail, RunFrame } from '../../../common/api/runs';

/** Words for the kinds the engine names in camelCase; others are sentence-cased as they are. */
const KIND_WORDS: Readonly<Record<string, string>> = {
  setObjectState: 'Set object state',
  whisper: 'Whisper',
  rememberedInterview: 'Interview (remembered)',
  moveResident: 'Walk',
  join: 'Joined',
  leave: 'Left',
  say: 'Said',
};

/**
 * A log or intervention kind as words: "setObjectState" → "Set object state", "fork" → "Fork",
 * "step failed" → "Step failed"; an unknown camelCase kind is split into words.
 */
export function kindLabel(kind: string): string {
  const known = KIND_WORDS[kind];
  if (known) return known;
  const words = kind.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Everyone the inspector can name, by id: the people on the map, the ones the selected person
 * knows of, and the selected person.
 */
export function namesById(
  agents: readonly Pick<RunFrame['agents'][number], 'id' | 'name'>[],
  detail?: Pick<AgentDetail, 'id' | 'name' | 'relationships'> | null,
): Map<string, string> {
  const names = new Map<string, string>();
  for (const r of detail?.relationships ?? []) names.set(r.agentId, r.name);
  for (const a of agents) names.set(a.id, a.name);
  if (detail) names.set(detail.id, detail.name);
  return names;
}

/** A person's name for their id (the id itself only when nobody by that id is known). */
export function nameOf(id: string, names: ReadonlyMap<string, string>): string {
  return names.get(id) ?? id;
}

/** A conversation's title: its people by name ("Tobias Mensah & Marisol Okafor"). */
export function conversationTitle(
  participants: readonly string[],
  names: ReadonlyMap<string, string>,
): string {
  return participants.map((id) => nameOf(id, names)).join(' & ');
}
