/**
 * `converse.turn`: the next line of a conversation and whether it ends here (Park et al. 2023
 * §4.3.1; reverie `agent_chat_v2` generates one utterance per call with an end flag).
 */
import { restates, restatesFrom } from '../agent/restatement';
import { ranked, recent, wholeText, type Part } from './budget';
import { EXAMPLE_CHAT, namesAnExample } from './examples';
import { exampleSystem, residentBrief, type IdentityView } from './identity';
import { bool, object, words } from './jsonSchema';
import { buildSpec, type PromptSpec } from './PromptSpec';

/** Longest line, in words. */
const UTTERANCE_WORDS = 20;

const shape = object({ utterance: words(UTTERANCE_WORDS, 1), end: bool() });

/** What the speaker's social memory holds about the listener (AGA), used instead of memories. */
export interface SocialView {
  relationship: string;
  feeling: string;
  /** The compressed "summary events" text. */
  summary: string;
}

/** Sampling temperature of a turn asked again after it repeated an earlier line. */
export const SAY_NEW_TEMPERATURE = 1;

/** What a turn is asked from: the moment, the partner, what the speaker recalls, the lines so far. */
export interface TurnInput {
  now: string;
  place: string;
  partnerName: string;
  /** What the partner is doing now ("… is <partnerActivity>"). */
  partnerActivity: string;
  /** Earlier conversations with the partner, "<when>: <what>", newest first. */
  earlierChats: readonly string[];
  /** What the speaker retrieved for this line; unused with `social`. */
  memories: readonly string[];
  transcript: readonly string[];
  /** Without social memory: this line's summary of how the speaker stands with the partner. */
  relationship?: string;
  social?: SocialView;
  /** Asked again after a line that repeated an earlier one (agent/converse.ts): say so. */
  sayNew?: boolean;
}

/**
 * Builds the next-utterance prompt; `transcript` lines are "Name: words". `memories` are what
 * the speaker retrieved for this line; with `social` (the cost layer's social memory) they are
 * not shown: the line is asked from the relationship, feeling and summary, into which the
 * retrieved memories were merged (agent/converse.ts `turnContext`). The example
 * residents' chat in the park comes first, as worked examples (its four lines, each asked of its
 * speaker), as in the planning prompts: SmolLM2-135M, asked without them, wrote dates as its
 * lines ("yesterday was Monday, April 15, 2024").
 */
export function converseTurnPrompt(
  who: IdentityView,
  input: TurnInput,
): PromptSpec<{ utterance: string; end: boolean }> {
  return buildSpec({
    fn: 'converse.turn',
    stable: exampleSystem(
      'Two residents are in a conversation. Say the next line of the one you are asked, in ' +
        `character, in at most ${UTTERANCE_WORDS} words, and set "end" to true when the ` +
        'conversation should finish after it.',
    ),
    examples: CHAT_EXAMPLES,
    volatile: turnQuestion(who, input),
    shape,
    // A line that starts with a speaker's name, as the transcript's lines do ("Delphine
    // Cartwright: The willow are being cut down." said by Tobias), is said without it.
    decode: ({ utterance, end }) => ({
      utterance: withoutSpeaker(utterance, [who.name, input.partnerName]),
      end,
    }),
    // Asked again after a repeat: sampled more freely, so the answer can leave the rut.
    ...(input.sayNew ? { temperature: SAY_NEW_TEMPERATURE } : {}),
  });
}

/** `utterance` without a leading "<one of names>:"; as written when nothing else is left. */
export function withoutSpeaker(utterance: string, names: readonly string[]): string {
  const said = utterance.trimStart();
  const name = names.find((n) => said.toLowerCase().startsWith(`${n.toLowerCase()}:`));
  return (name && said.slice(name.length + 1).trim()) || utterance;
}

/**
 * The example chat's lines in the order they were said, each asked of its speaker: the same for
 * every turn, so rendered once.
 */
const CHAT_EXAMPLES = EXAMPLE_CHAT.map(({ who, turn }) => ({
  question: wholeText(turnQuestion(who, { ...turn, earlierChats: [] })),
  answer: turn.line,
}));

/** The example chat's lines as said, without their speakers' names. */
const EXAMPLE_UTTERANCES = EXAMPLE_CHAT.map(({ turn }) => turn.line.utterance);

/**
 * Runs of three words a chat line must take from the example chat to be a copy of it: about
 * ten words of it, so a greeting or stock phrase it shares ("How are you today? Is that a
 * good book?", seven runs) is the resident's own.
 */
const COPIED_RUNS = 8;

/**
 * Whether a chat line is the worked example's chat said again: it names the examples' people
 * or town ({@link namesAnExample}; not a name someone in the town has), has the words of one of
 * its lines, or takes more than half of its runs of three words, and {@link COPIED_RUNS} or
 * more, from its lines together (agent/restatement.ts). SmolLM2-135M, as Tobias talking with
 * Agnes, said "I am sorry to hear that. The book is lovely, but my bees are not making much
 * honey this year." — Sam's words as they were then, and Rosa's, about bees Tobias does not keep.
 * @example copiesExampleLine('The book is lovely, but my bees are not making much honey this year.', 'Tobias Mensah') // true
 * @example copiesExampleLine('How are you today? Shall we ask the council about the willow?', 'Tobias Mensah') // false
 */
export function copiesExampleLine(
  utterance: string,
  name: string,
  neighbours: readonly string[] = [],
): boolean {
  return (
    namesAnExample(utterance, [name, ...neighbours]) ||
    restatesFrom(utterance, EXAMPLE_UTTERANCES, { minRuns: COPIED_RUNS })
  );
}

/** What the question's scene sentence is made of. */
type Scene = Pick<TurnInput, 'now' | 'place' | 'partnerName' | 'partnerActivity'>;

/** Where and when the chat is, and with whom: the question's own words, not the resident's. */
function sceneLine(input: Scene) {
  return (
    `It is ${input.now}, in ${input.place}. You are talking with ${input.partnerName}, who is ` +
    `${input.partnerActivity}.`
  );
}

/**
 * Whether a chat line only says the question's scene back ({@link restates}): SmolLM2-135M
 * opened a chat with "It is Monday April 15, 2024, 08:50, in Willow Bend:Larkspur
 * College:library. You are talking with Agnes Whitlow, who is writing about the…".
 */
export function echoesScene(utterance: string, input: Scene): boolean {
  return restates(utterance, sceneLine(input));
}

/** The question's parts, for the resident and for the worked examples alike. */
function turnQuestion(who: IdentityView, input: TurnInput): Part[] {
  const partner = input.partnerName;
  return [
    `${residentBrief(who)}\n${sceneLine(input)}\n`,
    ...(input.earlierChats.length
      ? [
          `Your earlier conversations with ${partner}:\n`,
          ranked('earlier chats', input.earlierChats, { priority: 2 }),
          '\n',
        ]
      : []),
    ...(input.social
      ? [
          `Your relationship with ${partner}: ${input.social.relationship}; you feel: ` +
            `${input.social.feeling}.\nWhat has happened between you: ${input.social.summary}\n`,
        ]
      : [
          ...(input.relationship ? [`How you stand with ${partner}: ${input.relationship}\n`] : []),
          'What you remember:\n',
          ranked('memories', input.memories, { priority: 1 }),
          '\n',
        ]),
    // The conversation itself comes first when the context is short.
    'Conversation so far:\n',
    input.transcript.length
      ? recent('transcript', input.transcript, { min: 1, style: 'line' })
      : '(you speak first)',
    input.sayNew
      ? `\nYour next line, as ${who.name}, in new words (do not repeat a line already said):`
      : `\nYour next line, as ${who.name}:`,
  ];
}
