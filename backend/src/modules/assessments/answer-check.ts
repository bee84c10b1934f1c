import { isRangeAnswer, toDay, typeClassOf, type AnswerOption, type EngineParameter } from '../../engine';
import { sameJson } from '../parameters/api-helpers';

export const MAX_TEXT_ANSWER = 1000;

function configuredOptions(parameter: EngineParameter): boolean {
  const options = parameter.validation_rules?.options;
  return Array.isArray(options) && options.length > 0;
}

function isRange(value: unknown): boolean {
  if (!isRangeAnswer(value)) return false;
  const keys = Object.keys(value).sort().join(',');
  const { min, max } = value as { min: unknown; max: unknown };
  return keys === 'max,min,type' && typeof min === 'number' && typeof max === 'number' && Number.isFinite(min) && Number.isFinite(max) && min <= max;
}

const isText = (v: unknown) => typeof v === 'string' && v.trim() !== '' && v.length <= MAX_TEXT_ANSWER;

/**
 * Why `value` cannot answer the question about `parameter`, or null when it can. One of the
 * options offered is always accepted; otherwise the value must have the parameter's type, and a
 * parameter with a configured list of options accepts nothing else. An answer the engine could
 * not read would silently count as "unknown", so it is refused here instead.
 */
export function answerProblem(parameter: EngineParameter, offered: readonly AnswerOption[], value: unknown): string | null {
  if (offered.some((o) => sameJson(o.value, value))) return null;
  const name = parameter.display_name || parameter.name;
  if (configuredOptions(parameter)) return `value must be one of the options offered for ${name}`;
  switch (typeClassOf(parameter.data_type)) {
    case 'numeric':
      return (typeof value === 'number' && Number.isFinite(value)) || isRange(value)
        ? null
        : `value must be a number (or a range { type: 'range', min, max }) for ${name}`;
    case 'boolean':
      return typeof value === 'boolean' ? null : `value must be true or false for ${name}`;
    case 'date':
      return typeof value === 'string' && !Number.isNaN(toDay(value)) ? null : `value must be an ISO date (YYYY-MM-DD) for ${name}`;
    case 'text':
    case 'choice':
      return isText(value) ? null : `value must be text of 1 to ${MAX_TEXT_ANSWER} characters for ${name}`;
    default:
      return isText(value) || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
        ? null
        : `value must be a number, text or true/false for ${name}`;
  }
}

/** What the clinician chose, in words: the option's label, else the value itself. */
export function answerLabel(offered: readonly AnswerOption[], value: unknown): string {
  const option = offered.find((o) => sameJson(o.value, value));
  if (option) return option.label;
  if (isRangeAnswer(value)) return `${String(value.min)}–${String(value.max)}`;
  return String(value);
}
