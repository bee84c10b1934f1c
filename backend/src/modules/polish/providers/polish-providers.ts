import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import type { PolishInput } from '../polish-input';
import { builtInQuestion } from './built-in-wording';
import { LlmPolishError, LlmPolishProvider } from './llm-provider';

export type ProviderName = 'built-in' | 'llm';

export interface PolishResult {
  question: string;
  provider: ProviderName;
}

/** The provider chain: the LLM when configured, the built-in wording always last. Never throws. */
@Injectable()
export class PolishProviders {
  private readonly logger = new Logger('Polish');
  private readonly llm?: LlmPolishProvider;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    if (config.polishLlm) this.llm = new LlmPolishProvider(config.polishLlm);
  }

  /** What GET /api/polish/status reports: the first provider the chain tries. */
  get primary(): ProviderName {
    return this.llm ? 'llm' : 'built-in';
  }

  async polish(input: PolishInput): Promise<PolishResult> {
    if (this.llm) {
      try {
        return { question: await this.llm.polish(input), provider: 'llm' };
      } catch (err) {
        const reason = err instanceof LlmPolishError ? `${err.reason}: ${err.message}` : 'unexpected error';
        this.logger.warn(`LLM polishing failed (${reason}); using the built-in wording`);
      }
    }
    return { question: builtInQuestion(input), provider: 'built-in' };
  }
}
