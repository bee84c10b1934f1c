import { NOT_AVAILABLE, NOT_AVAILABLE_LABEL, type AnswerOptionJson, type AssessmentJson, type QuestionJson } from '@cds/contracts';

/** The server's options, always ending with Not available (every question may be unanswerable). */
export function questionOptions(q: QuestionJson): AnswerOptionJson[] {
  const options = q.options ?? [];
  return options.some((o) => o.value === NOT_AVAILABLE) ? options : [...options, { label: NOT_AVAILABLE_LABEL, value: NOT_AVAILABLE }];
}

/** The band given earlier for this question's parameter, when the server asks again for the exact value. */
export function bandAskedAgain(a: AssessmentJson, q: QuestionJson): string | null {
  const earlier = a.answer_details?.find((d) => d.parameter_id === q.parameter_id && d.entered_as === 'band');
  return earlier ? earlier.label : null;
}

/** Marks the typed-value field as the busy control (a button is marked by its label). */
export const TYPED_ANSWER_KEY = '\u0000typed';
