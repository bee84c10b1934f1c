import type { AppConfig } from '../../../config/app-config';
import type { PolishInput } from '../polish-input';

export const MAX_QUESTION_LENGTH = 200;

export class LlmPolishError extends Error {
  constructor(
    readonly reason: 'timeout' | 'network' | 'http_status' | 'malformed_response' | 'invalid_question',
    message: string,
  ) {
    super(message);
    this.name = 'LlmPolishError';
  }
}

const SYSTEM_PROMPT = [
  'You word questions for a clinical decision-support form used by primary care physicians.',
  'Given a clinical parameter, reply with exactly one question a clinician answers about the patient,',
  `in plain clinical English, ending with a question mark, at most ${MAX_QUESTION_LENGTH} characters.`,
  'Include the units in parentheses when there are units. Reply with the question only.',
].join(' ');

/** Accepts one question on one line, ending with '?', at most 200 characters; returns it tidied, or null. */
export function validQuestion(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  let text = raw.trim();
  // Models like to wrap the answer in quotes or backticks.
  const wrapped = /^(["'`“‘])([\s\S]*)(["'`”’])$/.exec(text);
  if (wrapped) text = wrapped[2].trim();
  if (/[\r\n]/.test(text)) return null;
  text = text.replace(/\s+/g, ' ');
  if (text.length < 5 || text.length > MAX_QUESTION_LENGTH) return null;
  if (!text.endsWith('?') || text.indexOf('?') !== text.length - 1) return null;
  if (!/\p{L}/u.test(text) || /[<>{}]/.test(text)) return null;
  return text;
}

/** POLISH_LLM_URL may be the API base (…/v1) or the full chat-completions endpoint. */
export function chatCompletionsUrl(url: string): string {
  const u = url.replace(/\/+$/, '');
  return /\/chat\/completions$/.test(u) ? u : `${u}/chat/completions`;
}

/**
 * Any OpenAI-compatible chat-completions endpoint. Throws LlmPolishError on every failure;
 * the chain falls back to the built-in wording. Error messages never carry the key or URL.
 */
export class LlmPolishProvider {
  readonly name = 'llm';
  private readonly endpoint: string;

  constructor(private readonly llm: NonNullable<AppConfig['polishLlm']>) {
    this.endpoint = chatCompletionsUrl(llm.url);
  }

  async polish(input: PolishInput): Promise<string> {
    const signal = AbortSignal.timeout(this.llm.timeoutMs);
    let body: unknown;
    try {
      const res = await fetch(this.endpoint, {
        method: 'POST',
        signal,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(this.llm.key ? { authorization: `Bearer ${this.llm.key}` } : {}),
        },
        body: JSON.stringify({
          model: this.llm.model,
          temperature: 0,
          max_tokens: 100,
          n: 1,
          messages: [
            { role: 'system', content: SYSTEM_PROMPT },
            {
              role: 'user',
              content: JSON.stringify({
                display_name: input.displayName,
                name: input.name,
                category: input.category ?? undefined,
                data_type: input.dataType ?? undefined,
                units: input.units ?? undefined,
              }),
            },
          ],
        }),
      });
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        throw new LlmPolishError('http_status', `LLM answered HTTP ${res.status}`);
      }
      const text = await res.text();
      try {
        body = JSON.parse(text);
      } catch {
        throw new LlmPolishError('malformed_response', 'LLM answer is not JSON');
      }
    } catch (err) {
      if (err instanceof LlmPolishError) throw err;
      if (signal.aborted) throw new LlmPolishError('timeout', `LLM did not answer within ${this.llm.timeoutMs} ms`);
      throw new LlmPolishError('network', 'LLM could not be reached');
    }
    const content = (body as { choices?: Array<{ message?: { content?: unknown } }> })?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new LlmPolishError('malformed_response', 'LLM answer has no choices[0].message.content');
    const question = validQuestion(content);
    if (!question) throw new LlmPolishError('invalid_question', 'LLM answer is not one question ending with ? within 200 characters');
    return question;
  }
}
