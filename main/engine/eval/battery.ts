/**
 * The interview battery (Park et al. 2023 §6.1 evaluates believability with interviews in five
 * areas). The questions are our own wording. Slots are filled per agent so every resident is
 * asked about someone they could plausibly know:
 *
 *   {self}  the agent's own full name
 *   {other} another resident's full name (the next one in persona order, wrapping around)
 *   {home}  the last part of the agent's living-area address (e.g. "bedroom")
 */

import { BATTERY_AREAS } from '../../../common/api/lab';

/** The five areas, in report order; the list the studio's Lab offers (common/api/lab.ts). */
export const BATTERY_CATEGORIES = BATTERY_AREAS;
export type BatteryCategory = (typeof BATTERY_CATEGORIES)[number];

/** One question template. `id` is stable across runs so answers line up in the report. */
export interface BatteryTemplate {
  id: string;
  category: BatteryCategory;
  template: string;
}

/** Five questions per category, our own wording. */
export const BATTERY: readonly BatteryTemplate[] = [
  { id: 'self-1', category: 'self-knowledge', template: 'Tell me a little about yourself.' },
  { id: 'self-2', category: 'self-knowledge', template: 'What do you do for a living?' },
  {
    id: 'self-3',
    category: 'self-knowledge',
    template: 'Which three words would a friend use to describe you?',
  },
  { id: 'self-4', category: 'self-knowledge', template: 'Where do you live, and with whom?' },
  {
    id: 'self-5',
    category: 'self-knowledge',
    template: 'What matters most to you at the moment?',
  },
  { id: 'memory-1', category: 'memory', template: 'Who is {other}?' },
  {
    id: 'memory-2',
    category: 'memory',
    template: 'When did you last talk with {other}, and what about?',
  },
  { id: 'memory-3', category: 'memory', template: 'What have you been doing since you woke up?' },
  {
    id: 'memory-4',
    category: 'memory',
    template: 'Has anything surprising happened around town lately?',
  },
  { id: 'memory-5', category: 'memory', template: 'Who did you see at your {home} today?' },
  { id: 'plans-1', category: 'plans', template: 'What is on your schedule for the rest of today?' },
  { id: 'plans-2', category: 'plans', template: 'What will you be doing at six this evening?' },
  { id: 'plans-3', category: 'plans', template: 'Is there something you plan to do tomorrow?' },
  {
    id: 'plans-4',
    category: 'plans',
    template: 'Are you meeting anyone in the next few days?',
  },
  {
    id: 'plans-5',
    category: 'plans',
    template: 'What is one goal you are working towards this week?',
  },
  {
    id: 'reactions-1',
    category: 'reactions',
    template: 'Your kitchen is full of smoke. What do you do?',
  },
  {
    id: 'reactions-2',
    category: 'reactions',
    template: '{other} looks upset and walks past without a word. How do you respond?',
  },
  {
    id: 'reactions-3',
    category: 'reactions',
    template: 'A stranger asks you for directions to the nearest cafe. What do you say?',
  },
  {
    id: 'reactions-4',
    category: 'reactions',
    template: 'It starts to pour with rain while you are outside. What do you do next?',
  },
  {
    id: 'reactions-5',
    category: 'reactions',
    template: '{other} asks you for a favour you have no time for. What do you answer?',
  },
  {
    id: 'reflections-1',
    category: 'reflections',
    template: 'What have you learned about yourself recently?',
  },
  {
    id: 'reflections-2',
    category: 'reflections',
    template: 'How would you describe your relationship with {other}?',
  },
  {
    id: 'reflections-3',
    category: 'reflections',
    template: 'If you could change one thing about your days, what would it be?',
  },
  {
    id: 'reflections-4',
    category: 'reflections',
    template: 'Whose company do you enjoy most, and why?',
  },
  {
    id: 'reflections-5',
    category: 'reflections',
    template: 'What has been on your mind more than anything else today?',
  },
];

/** A filled question for one agent. */
export interface BatteryQuestion {
  id: string;
  category: BatteryCategory;
  question: string;
}

/** Who an agent is, as the slots need it. */
export interface Resident {
  id: string;
  name: string;
  livingArea: string;
}

/** Which questions to ask: all, some categories, and/or the first N of each category. */
export interface BatterySelection {
  categories?: readonly BatteryCategory[];
  perCategory?: number;
}

/**
 * The battery for `residents[index]`, slots filled.
 * @throws RangeError when `index` is out of range.
 */
export function batteryFor(
  residents: readonly Resident[],
  index: number,
  selection: BatterySelection = {},
): BatteryQuestion[] {
  const self = residents[index];
  if (!self) throw new RangeError(`no resident at index ${index}`);
  // Alone in town, "{other}" falls back to the agent itself rather than a made-up name.
  const other = residents[(index + 1) % residents.length];
  const home = self.livingArea.split(':').pop() || self.livingArea;
  const categories = new Set(selection.categories ?? BATTERY_CATEGORIES);
  const perCategory = selection.perCategory ?? 5;
  const taken = new Map<BatteryCategory, number>();
  const out: BatteryQuestion[] = [];
  for (const t of BATTERY) {
    if (!categories.has(t.category)) continue;
    const n = taken.get(t.category) ?? 0;
    if (n >= perCategory) continue;
    taken.set(t.category, n + 1);
    out.push({
      id: t.id,
      category: t.category,
      question: t.template
        .replaceAll('{self}', self.name)
        .replaceAll('{other}', other.name)
        .replaceAll('{home}', home),
    });
  }
  return out;
}
