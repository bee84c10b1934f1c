import type { Outcome, ParameterJson, RuleJson } from '@cds/contracts';
import { selectOptions, typeClassOf } from './conditionRules';
import { findParameter } from './draft';

/** How the sandbox asks for one answer. */
export type AnswerKind = 'number' | 'boolean' | 'date' | 'option' | 'text';

export function answerKind(p: Pick<ParameterJson, 'data_type' | 'validation_rules'>): AnswerKind {
  switch (typeClassOf(p.data_type)) {
    case 'numeric':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'choice':
      return selectOptions(p).length ? 'option' : 'text';
    default:
      return 'text';
  }
}

/** The special value an answer takes when the honest answer is "not known". */
export const NOT_KNOWN = 'unknown';

/** Parameters the rule's conditions use, in condition order, each once. */
export function parametersOfRule(rule: Pick<RuleJson, 'conditions'>, parameters: ParameterJson[]): ParameterJson[] {
  const out: ParameterJson[] = [];
  for (const c of rule.conditions ?? []) {
    const p = findParameter(parameters, c.parameter);
    if (p && !out.includes(p)) out.push(p);
  }
  return out;
}

/** Typed answers from what was entered; blank answers are left out (the engine sees them as missing). */
export function typedAnswers(
  raw: Record<string, string>,
  parameters: ParameterJson[],
): { answers: Record<string, unknown>; problems: Record<string, string> } {
  const answers: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const p of parameters) {
    const text = (raw[p.id] ?? '').trim();
    if (!text) continue;
    if (text === NOT_KNOWN) {
      answers[p.id] = NOT_KNOWN;
      continue;
    }
    switch (answerKind(p)) {
      case 'number':
        if (Number.isFinite(Number(text))) answers[p.id] = Number(text);
        else problems[p.id] = 'Enter a number.';
        break;
      case 'boolean':
        answers[p.id] = text === 'true';
        break;
      case 'date':
        if (/^\d{4}-\d{2}-\d{2}$/.test(text)) answers[p.id] = text;
        else problems[p.id] = 'Enter a date (YYYY-MM-DD).';
        break;
      case 'option': {
        const o = selectOptions(p).find((x) => String(x.value) === text);
        answers[p.id] = o ? o.value : text;
        break;
      }
      default:
        if (text.length > 500) problems[p.id] = 'At most 500 characters.';
        else answers[p.id] = text;
    }
  }
  return { answers, problems };
}

/** Stored answers back to the form's text. */
export function rawAnswers(answers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(answers).map(([k, v]) => [
      k,
      v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v),
    ]),
  );
}

export function outcomeLabel(o: Outcome | 'skipped'): string {
  if (o === true) return 'Match';
  if (o === false) return 'No match';
  if (o === 'skipped') return 'Not checked';
  return 'Undetermined';
}

/** One condition's result in the trace. */
export function conditionResultLabel(r: Outcome | 'skipped'): string {
  if (r === true) return 'Met';
  if (r === false) return 'Not met';
  if (r === 'skipped') return 'Not checked';
  return 'Undetermined';
}

export const OUTCOME_COLOR = (o: Outcome | 'skipped'): 'success' | 'default' | 'warning' =>
  o === true ? 'success' : o === false ? 'default' : 'warning';

const REASONS: Record<string, string> = {
  missing_answer: 'no answer given',
  unknown_answer: 'answered "not known"',
  uninterpretable_answer: 'the answer cannot be compared',
  unknown_operator: 'unknown operator',
  invalid_threshold: 'the rule’s value cannot be compared',
  no_reference_time: 'needs a reference date',
  not_checked: 'not checked',
};
export const reasonText = (r?: string) => (r ? (REASONS[r] ?? r.replace(/_/g, ' ')) : '');
