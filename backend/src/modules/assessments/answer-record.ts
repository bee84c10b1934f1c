import { NOT_AVAILABLE, type AnswerDetailJson, type QuestionJson, type RecordPatientJson } from '@cds/contracts';
import { canonicalUnit, decimalsFor, isStale, lookbackDays, unitDisplay, type EngineParameter, type EngineQuestion } from '@cds/engine';
import { DomainError, validationFailed } from '../../common/errors';
import { sameJson } from '../../common/api-helpers';
import {
  checkAnswer,
  formatNumber,
  DIASTOLIC_LOINC,
  isNumericParameter,
  isRefusal,
  pressureConflict,
  SYSTOLIC_LOINC,
  withNotAvailable,
  type Offered,
} from './answer-check';
import type { AnswerDto } from './assessments.dto';
import type { RecordHistorySnapshot } from './record-context';

/** Shared by the clinical assessment and the chat: an answer is checked, then recorded as entered. */

/** Up to five minutes ahead of the server clock is still "now" (clocks drift). */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The question as put to the clinician: the engine's question (bands, Yes/No or options, always
 * Not available; typed entry for numbers) with the wording stored for the parameter.
 */
export function questionJson(question: EngineQuestion, text: string): QuestionJson {
  return { ...question, text, options: withNotAvailable(question.options) };
}

/**
 * Checks the answer and returns what is stored: the value in the parameter's unit, and the answer
 * as entered. A refusal is a domain error, thrown before anything is written.
 */
export function recordAnswer(parameter: EngineParameter, offered: Offered, dto: AnswerDto, at: Date): AnswerDetailJson {
  if (dto.observed_at !== undefined && Date.parse(dto.observed_at) > at.getTime() + CLOCK_SKEW_MS) {
    throw validationFailed([{ field: 'observed_at', message: 'observed_at must not be in the future' }]);
  }
  const checked = checkAnswer(parameter, offered, dto.value, dto.unit);
  if (isRefusal(checked)) {
    if (checked.code === 'validation_failed') throw validationFailed([{ field: checked.field, message: checked.message }]);
    throw new DomainError(checked.code, checked.message, [{ field: checked.field, message: checked.message }]);
  }
  return {
    parameter_id: parameter.id,
    parameter_name: parameter.name,
    display_name: parameter.display_name,
    units: parameter.units ?? null,
    value: checked.value,
    unit: checked.unit,
    ...(checked.entered_value !== undefined
      ? { entered_value: checked.entered_value, decimals: recordedDecimals(parameter, offered) }
      : {}),
    entered_as: checked.entered_as,
    label: checked.label,
    observed_at: dto.observed_at ?? null,
    ...(dto.confirmed_from ? { confirmed_from: dto.confirmed_from } : {}),
    answered_at: at.toISOString(),
  };
}

/**
 * A value said to be confirmed from the record must belong to an assessment started with values from
 * there (its record context): the case would otherwise show a typed value as the record's.
 */
export function checkConfirmedFrom(dto: AnswerDto, patient: RecordPatientJson | null): void {
  if (!dto.confirmed_from || patient?.source === dto.confirmed_from) return;
  const where = dto.confirmed_from === 'ehr' ? 'the EHR' : 'the stored record';
  throw validationFailed([
    {
      field: 'confirmed_from',
      message: `confirmed_from: this assessment was not started with values from ${where}; send the value without it`,
    },
  ]);
}

/**
 * A number said to be confirmed from the record must be one the record gave for that parameter (as
 * given, or as converted to the parameter's unit): an altered value is the clinician's, shown as typed.
 * Parameters without results in the snapshot (age from the birth date, coded answers) are not checked here.
 */
export function checkConfirmedValue(dto: AnswerDto, history: RecordHistorySnapshot | null): void {
  if (!dto.confirmed_from || !history || typeof dto.value !== 'number') return;
  const entry = history.parameters.find((p) => p.parameter_id === dto.parameter_id);
  if (!entry) return;
  const known = [entry.unit, ...entry.results.map((r) => r.unit)].filter((u): u is string => !!u);
  const unit = dto.unit ? canonicalUnit(dto.unit, known) : entry.unit;
  const given = entry.results.some(
    (r) => (r.value === dto.value && (r.unit ?? entry.unit) === unit) || (r.converted === dto.value && unit === entry.unit),
  );
  if (given) return;
  const shown = `${formatNumber(dto.value)}${unit ? ` ${unitDisplay(unit)}` : ''}`;
  throw validationFailed([
    {
      field: 'confirmed_from',
      message: `confirmed_from: ${entry.display_name} ${shown} is not a result the record gave; send the value without it, as typed`,
    },
  ]);
}

/** The precision a converted value is shown against: declared decimals, else that of the bands' cut-points. */
function recordedDecimals(parameter: EngineParameter, offered: Offered): number {
  const cuts = offered.flatMap((o) => {
    const v = o.value as { type?: unknown; min?: unknown; max?: unknown } | null;
    if (typeof v !== 'object' || v === null || v.type !== 'range') return [];
    return [v.min, v.max].filter((n): n is number => typeof n === 'number' && Number.isFinite(n));
  });
  return decimalsFor(parameter, cuts);
}

/** A repeated request (double click, retry) for the answer just recorded. */
export function repeatsAnswer(last: AnswerDetailJson | undefined, dto: AnswerDto): boolean {
  if (!last || last.parameter_id !== dto.parameter_id) return false;
  const entered = last.entered_value !== undefined && last.entered_value !== null ? last.entered_value : last.value;
  const stored = last.unit ?? last.units ?? null;
  // The unit as stored is the UCUM code; a retry may spell it as typed (mmHg).
  const sent = dto.unit
    ? canonicalUnit(
        dto.unit,
        [stored, last.units].filter((u): u is string => !!u),
      )
    : (last.units ?? null);
  return sameJson(entered, dto.value) && sent === stored;
}

/** The parameter is not the one asked: say which is, and whether the id is known at all. */
export function notAsked(known: boolean, asked: string): DomainError {
  return validationFailed([
    {
      field: 'parameter_id',
      message: known
        ? `This parameter was not asked; the current question is about ${asked}`
        : `No parameter with this id is used here; the current question is about ${asked}`,
    },
  ]);
}

/**
 * Checks the new answer against the answers already given that it must agree with (systolic above
 * diastolic, found by LOINC code): refused 422 `out_of_range` naming both, before anything is written.
 */
export async function checkAgainstAnswers(
  detail: AnswerDetailJson,
  given: readonly AnswerDetailJson[],
  loincCodes: (ids: string[]) => Promise<ReadonlyMap<string, string>>,
): Promise<void> {
  const numeric = (d: AnswerDetailJson) => typeof d.value === 'number' || (typeof d.value === 'object' && d.value !== null);
  if (!numeric(detail)) return;
  const others = given.filter((d) => d.parameter_id !== detail.parameter_id && numeric(d));
  if (!others.length) return;
  const codes = await loincCodes([detail.parameter_id, ...others.map((d) => d.parameter_id)]);
  const code = codes.get(detail.parameter_id);
  if (code !== SYSTOLIC_LOINC && code !== DIASTOLIC_LOINC) return;
  const counterpart = code === SYSTOLIC_LOINC ? DIASTOLIC_LOINC : SYSTOLIC_LOINC;
  // The latest answer to the counterpart stands (a band may have been followed by its exact value).
  const other = [...others].reverse().find((d) => codes.get(d.parameter_id) === counterpart);
  if (!other) return;
  const side = (d: AnswerDetailJson) => ({ name: d.display_name, value: d.value, label: d.label });
  const [s, d] = code === SYSTOLIC_LOINC ? [detail, other] : [other, detail];
  const message = pressureConflict(side(s), side(d));
  if (message) throw new DomainError('out_of_range', message, [{ field: 'value', message }]);
}

/**
 * A measured value observed longer ago than its parameter's lookback (validation_rules.lookback_days,
 * else the default per LOINC code, as for the EHR's values) is stale: refused 422 naming the date, so the
 * form asks for a current value (or Not available). Reason: a 2019 HbA1c must not give a current diagnosis.
 */
export async function checkObservedAt(
  parameter: EngineParameter,
  dto: AnswerDto,
  at: Date,
  loincCodes: (ids: string[]) => Promise<ReadonlyMap<string, string>>,
): Promise<void> {
  if (dto.observed_at === undefined || dto.value === NOT_AVAILABLE || !isNumericParameter(parameter)) return;
  const observed = Date.parse(dto.observed_at);
  if (Number.isNaN(observed)) return;
  const days = lookbackDays(parameter.validation_rules, (await loincCodes([parameter.id])).get(parameter.id) ?? null);
  if (!isStale(observed, at.getTime(), days)) return;
  const name = parameter.display_name || parameter.name;
  const message = `${name} observed on ${dto.observed_at.slice(0, 10)} is older than ${days} days: enter a current value, or Not available`;
  throw new DomainError('out_of_range', message, [{ field: 'observed_at', message }]);
}
