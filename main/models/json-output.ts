/**
 * Turns a model's JSON text into a validated value, shared by every provider so a bad answer
 * reads the same whichever backend produced it: no regex repair, no silent fallback.
 */
import { ModelOutputError } from './errors.ts';
import type { CompletionRequest, FinishReason } from './types.ts';

/**
 * Parses `text` as JSON and applies the request's validator.
 * @throws ModelOutputError `output-truncated` when generation hit maxTokens mid-JSON,
 *   `output-invalid` when the text is not JSON or fails validation.
 */
export function parseJsonOutput<T>(
  text: string,
  finishReason: FinishReason,
  request: CompletionRequest<T>,
): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (finishReason === 'length') {
      throw new ModelOutputError(
        'output-truncated',
        `The ${request.fn} answer hit maxTokens (${request.maxTokens}) before its JSON was complete; raise maxTokens for this function.`,
        text,
        { cause: error },
      );
    }
    throw new ModelOutputError(
      'output-invalid',
      `The ${request.fn} answer is not valid JSON: ${(error as Error).message}`,
      text,
      { cause: error },
    );
  }
  if (!request.validator) return value as T;
  try {
    return request.validator.parse(value);
  } catch (error) {
    throw new ModelOutputError(
      'output-invalid',
      `The ${request.fn} answer does not match its schema: ${(error as Error).message}`,
      text,
      { cause: error },
    );
  }
}
