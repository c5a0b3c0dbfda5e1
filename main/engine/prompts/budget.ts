/**
 * Fits the variable parts of a prompt to the model's context, as the paper does with retrieved
 * memories ("as many as fit in the context window"): lists keep their best items that fit —
 * the best-scored for ranked lists, the newest for lists in time order — and only when the
 * fixed text with every list at its minimum still does not fit are the longest texts cut (a
 * question, a whisper, a long memory), each cut reported as a trim so the run's log shows it.
 *
 * Tokens are estimated from the run's {@link TokenProfile} (the model's measured tokens per
 * character), not counted by the model, so the same prompts come out when a run is replayed
 * without its model.
 */
import { UNMEASURED_PROFILE, type TokenProfile } from './tokenProfile';

/** Margin over the measured tokens per character for prompt text. */
const PROMPT_MARGIN = 1.05;

/** Shortest a cut free text gets, in characters (enough to keep its gist). */
const MIN_CUT_CHARS = 24;

/** A part of a prompt the fit may shorten: text the user or the model wrote, of any length. */
export interface FreeTextPart {
  kind: 'free';
  /** What the text is, as trims name it ("question", "task"). */
  name: string;
  text: string;
}

/** A list the fit keeps as many items of as fit. */
export interface ListPart {
  kind: 'list';
  /** What the list holds, as trims and `kept` name it ("memories", "places"). */
  name: string;
  /** In display order. */
  items: readonly string[];
  /**
   * `ranked`: items come best first, the fit keeps the best that fit (skipping one too long).
   * `recent`: items come oldest first, the fit keeps the newest run of them that fits.
   */
  order: 'ranked' | 'recent';
  /** Items the prompt always shows (default 0), shortened if need be. */
  min?: number;
  /** Items are shown exactly or not at all (they are the answer's choices). */
  whole?: boolean;
  /** Each item as "- …" (default), "1. …", or a bare line (a transcript). */
  style?: 'bullet' | 'number' | 'line';
  /** Lists with a lower priority are filled first (default 0; ties in part order). */
  priority?: number;
  /** Items are names (places), estimated at the profile's rate for names. */
  names?: boolean;
}

/** A piece of a prompt's user message: fixed text, free text or a list. */
export type Part = string | FreeTextPart | ListPart;

/** Free text the fit may cut (see {@link FreeTextPart}). */
export function freeText(name: string, text: string): FreeTextPart {
  return { kind: 'free', name, text };
}

/** A list of items best first; keeps the best that fit. */
export function ranked(
  name: string,
  items: readonly string[],
  options: Pick<ListPart, 'min' | 'style' | 'priority' | 'whole' | 'names'> = {},
): ListPart {
  return { kind: 'list', name, items, order: 'ranked', ...options };
}

/** A list of items oldest first; keeps the newest that fit. */
export function recent(
  name: string,
  items: readonly string[],
  options: Pick<ListPart, 'min' | 'style' | 'priority' | 'whole' | 'names'> = {},
): ListPart {
  return { kind: 'list', name, items, order: 'recent', ...options };
}

/**
 * A text the fit had to shorten beyond "as many items as fit" (logged with the call): a free
 * text part by name, or a list item as `name[index]`.
 */
export interface PromptTrim {
  part: string;
  fromChars: number;
  toChars: number;
}

/** The user message after fitting. */
export interface FittedParts {
  text: string;
  /** Indices (into the list's `items`) of the items kept, in display order, by list name. */
  kept: Map<string, number[]>;
  trims: PromptTrim[];
  /** Estimated tokens of the rendered text. */
  tokens: number;
  /**
   * Tokens the user message needs with each list at its minimum and no text cut (its newest or
   * best items): with the system text, template and answer, the context this prompt needs.
   */
  neededTokens: number;
}

/** Estimated tokens of prompt text (of names, e.g. a list of places) under `profile`. */
export function estimateTokens(text: string, profile: TokenProfile, names = false): number {
  const perChar = names
    ? (profile.nameTokensPerChar ?? profile.textTokensPerChar)
    : profile.textTokensPerChar;
  return Math.ceil(text.length * perChar * PROMPT_MARGIN);
}

/** One list's state while fitting. */
interface ListState {
  part: ListPart;
  /** Candidate order: best or newest first. */
  candidates: number[];
  kept: Set<number>;
  /** Items shown shortened, by index. */
  shown: Map<number, string>;
}

/**
 * Renders `parts` into at most `budget` estimated tokens (`null`: no limit): fixed text always,
 * each list's minimum, then lists filled in priority order, then the longest texts cut if the
 * rest still does not fit.
 */
export function fitParts(
  parts: readonly Part[],
  profile: TokenProfile,
  budget: number | null,
): FittedParts {
  const cost = (text: string) => estimateTokens(text, profile);
  const lists: ListState[] = parts
    .filter((p): p is ListPart => typeof p !== 'string' && p.kind === 'list')
    .map((part) => {
      const indices = part.items.map((_, i) => i);
      return {
        part,
        candidates: part.order === 'recent' ? indices.reverse() : indices,
        kept: new Set<number>(),
        shown: new Map<number, string>(),
      };
    });
  const byPriority = [...lists].sort((a, b) => (a.part.priority ?? 0) - (b.part.priority ?? 0));
  const itemCost = (list: ListState, i: number) =>
    estimateTokens(
      `${marker(list.part, list.part.items.length)}${list.part.items[i]}\n`,
      profile,
      list.part.names,
    );
  const free = parts.filter((p): p is FreeTextPart => typeof p !== 'string' && p.kind === 'free');
  const cut = new Map<FreeTextPart, string>(free.map((p) => [p, p.text]));

  const render = () => renderParts(parts, cut, lists);
  // Fixed text and free text; each empty list renders as "-".
  let used = cost(render());
  for (const list of lists) {
    for (const i of list.candidates.slice(0, list.part.min ?? 0)) {
      list.kept.add(i);
      used += itemCost(list, i);
    }
  }
  const neededTokens = used;
  const limit = budget ?? Number.POSITIVE_INFINITY;
  for (const list of byPriority) {
    for (const i of list.candidates) {
      if (list.kept.has(i)) continue;
      const c = itemCost(list, i);
      if (used + c <= limit) {
        list.kept.add(i);
        used += c;
      } else if (list.part.order === 'recent') break;
    }
  }

  const trims: PromptTrim[] = [];
  if (used > limit) {
    // Still too long with every list at its minimum: cut the longest texts first — free text,
    // then kept list items (a minimum is kept, if need be shortened; `whole` lists are not cut).
    const cuttable: { name: string; get(): string; set(text: string): void }[] = [
      ...free.map((part) => ({
        name: part.name,
        get: () => cut.get(part) as string,
        set: (text: string) => cut.set(part, text),
      })),
      ...lists
        .filter((l) => !l.part.whole)
        .flatMap((l) =>
          [...l.kept].map((i) => ({
            name: `${l.part.name}[${i}]`,
            get: () => l.shown.get(i) ?? l.part.items[i],
            set: (text: string) => l.shown.set(i, text),
          })),
        ),
    ];
    for (const piece of cuttable.sort((a, b) => b.get().length - a.get().length)) {
      if (used <= limit) break;
      const text = piece.get();
      const excessChars = Math.ceil((used - limit) / (profile.textTokensPerChar * PROMPT_MARGIN));
      const keep = Math.max(MIN_CUT_CHARS, text.length - excessChars - 1);
      if (keep >= text.length) continue;
      const shorter = `${text.slice(0, keep).trimEnd()}…`;
      used += cost(shorter) - cost(text);
      piece.set(shorter);
      trims.push({ part: piece.name, fromChars: text.length, toChars: shorter.length });
    }
  }
  const text = render();
  return {
    text,
    kept: new Map(lists.map((l) => [l.part.name, keptIndices(l)])),
    trims,
    // Counted as it was fitted: names at their own rate (a shown empty list's "-" included).
    tokens: Math.max(used, cost(text)),
    neededTokens,
  };
}

/** `parts` rendered whole, every item of every list and no text cut: a worked example's question. */
export function wholeText(parts: readonly Part[]): string {
  return fitParts(parts, UNMEASURED_PROFILE, null).text;
}

/** Kept indices in display order. */
function keptIndices(list: ListState): number[] {
  return [...list.kept].sort((a, b) => a - b);
}

/** What goes before the `n`-th (1-based) item of a list. */
function marker(part: ListPart, n: number): string {
  return part.style === 'number' ? `${n}. ` : part.style === 'line' ? '' : '- ';
}

function renderParts(
  parts: readonly Part[],
  cut: Map<FreeTextPart, string>,
  lists: readonly ListState[],
): string {
  return parts
    .map((part) => {
      if (typeof part === 'string') return part;
      if (part.kind === 'free') return cut.get(part) as string;
      const list = lists.find((l) => l.part === part) as ListState;
      const items = keptIndices(list).map((i) => list.shown.get(i) ?? part.items[i]);
      if (items.length === 0) return '-';
      return items.map((item, n) => `${marker(part, n + 1)}${item}`).join('\n');
    })
    .join('');
}
