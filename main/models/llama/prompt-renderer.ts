/**
 * Turns chat messages into prompt tokens with the model's own chat template (read from the
 * GGUF by node-llama-cpp's `resolveChatWrapper`), so Qwen, Llama 3 and friends see the
 * format they were trained on. The rendering of a message list is a pure function of the
 * messages, which is what lets a stable leading system message hit the KV cache.
 */
import {
  resolveChatWrapper,
  type ChatHistoryItem,
  type ChatWrapper,
  type LlamaModel,
  type Token,
} from 'node-llama-cpp';
import type { ChatMessage } from '../types.ts';

/** A rendered prompt. */
export interface RenderedPrompt {
  tokens: Token[];
  /** Plain-text stop strings of the template (special-token stops are EOG tokens already). */
  stopStrings: string[];
}

/** Renders prompts for one model. */
export class PromptRenderer {
  private readonly wrapper: ChatWrapper;

  constructor(private readonly model: LlamaModel) {
    this.wrapper = resolveChatWrapper(model);
  }

  /** Name of the chat template in use (e.g. `ChatML`, `Llama3_1Chat`, `General`). */
  get templateName(): string {
    return this.wrapper.wrapperName;
  }

  render(messages: ChatMessage[]): RenderedPrompt {
    const history: ChatHistoryItem[] = messages.map((message) =>
      message.role === 'system'
        ? { type: 'system', text: message.content }
        : message.role === 'user'
          ? { type: 'user', text: message.content }
          : { type: 'model', response: [message.content] },
    );
    // An empty model turn at the end asks the template for the "assistant, go" prefix.
    history.push({ type: 'model', response: [] });
    const state = this.wrapper.generateContextState({ chatHistory: history });
    const stopStrings: string[] = [];
    for (const trigger of state.stopGenerationTriggers) {
      if (trigger.values.every((value) => typeof value === 'string')) {
        const text = trigger.values.join('');
        if (text.length > 0) stopStrings.push(text);
      }
    }
    return { tokens: state.contextText.tokenize(this.model.tokenizer), stopStrings };
  }
}
