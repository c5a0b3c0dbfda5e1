/**
 * How long one request to a server may take. A fixed limit is wrong both ways: the slowest plan
 * call on SmolLM2 over llama-server already took 55 s of the old fixed 60 (issue #24), while a
 * short rating on a GPU box takes a second. So the limit follows the request: its max tokens at
 * the generation speed measured on finished requests, three times over, plus its prompt at the
 * measured prompt speed, and never under 30 s. Before anything is measured it is a generous
 * 120 s; a limit set in Settings replaces all of this.
 */

/** No request is given less than this. */
export const MIN_TIMEOUT_MS = 30_000;
/** The limit before any request has finished. */
export const UNMEASURED_TIMEOUT_MS = 120_000;
/** Slack over the measured time: a busier server, a slower moment. */
const SLACK = 3;
/** Weight of the newest measurement in the running average. */
const NEWEST = 0.3;

/** What one finished request showed. */
export interface SpeedSample {
  /** Tokens generated and the milliseconds they took (all of the request's when unsplit). */
  generated: number;
  generateMs: number;
  /** Prompt tokens evaluated (not from the cache) and their milliseconds, where the server says. */
  evaluated?: number;
  evaluateMs?: number;
}

export class RequestTimer {
  /** Milliseconds per generated token; null until measured. */
  private msPerToken: number | null = null;
  /** Milliseconds per evaluated prompt token; null until a server tells it. */
  private msPerPromptToken: number | null = null;

  /** @param fixedSeconds Settings' timeout; null = follow the request. */
  constructor(private readonly fixedSeconds: number | null = null) {}

  /** Learns from a finished request. */
  learn(sample: SpeedSample): void {
    if (sample.generated > 0 && sample.generateMs > 0)
      this.msPerToken = average(this.msPerToken, sample.generateMs / sample.generated);
    if (sample.evaluated && sample.evaluated > 0 && sample.evaluateMs && sample.evaluateMs > 0)
      this.msPerPromptToken = average(this.msPerPromptToken, sample.evaluateMs / sample.evaluated);
  }

  /** Milliseconds a request for `maxTokens` with a prompt of about `promptTokens` may take. */
  timeoutMs(maxTokens: number, promptTokens: number): number {
    if (this.fixedSeconds !== null) return this.fixedSeconds * 1000;
    if (this.msPerToken === null) return UNMEASURED_TIMEOUT_MS;
    const generate = maxTokens * this.msPerToken;
    // Unsplit measurements already hold the prompt's time in msPerToken.
    const prompt = this.msPerPromptToken === null ? 0 : promptTokens * this.msPerPromptToken;
    return Math.max(MIN_TIMEOUT_MS, Math.ceil((generate + prompt) * SLACK));
  }
}

function average(previous: number | null, next: number): number {
  return previous === null ? next : previous * (1 - NEWEST) + next * NEWEST;
}
