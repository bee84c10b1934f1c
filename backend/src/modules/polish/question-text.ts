import { defaultQuestionText } from '@cds/engine';
import { polishInputHash, type PolishSource } from './polish-input';

export interface QuestionSource extends PolishSource {
  question_override?: string | null;
  polished_question?: string | null;
  polished_input_hash?: string | null;
}

/** The admin's override, else the question polished from the parameter as it is now, else null. */
export function storedQuestion(parameter: QuestionSource): string | null {
  const override = parameter.question_override?.trim();
  if (override) return override;
  // A question polished for an older display name would ask about the wrong thing.
  if (parameter.polished_question && parameter.polished_input_hash === polishInputHash(parameter)) return parameter.polished_question;
  return null;
}

/**
 * The question the chat asks for a parameter: the stored one (override or current polished
 * question), else the spec's 'What is your {display name in lowercase}?'. Reads only stored
 * columns: the chat never waits on the queue.
 */
export function questionText(parameter: QuestionSource): string {
  return storedQuestion(parameter) ?? defaultQuestionText(parameter);
}
