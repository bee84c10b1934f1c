import type { AnswerDetailJson, CdsPrefillValue } from '@cds/contracts';
import { readInterval, unitDisplay, type EngineParameter, type RangeAnswer } from '@cds/engine';
import { formatNumber } from '../assessments';
import { givenText, type NoValue, type ObservedValue } from './observations';
import type { Measured } from './record-needs';

/** What a hook call read, as the answers' details the cards and the prefilled form show. */

/** The LOINC codes of the two blood pressures, checked against each other (a diastolic at or above the systolic is an error of the record). */
const SYSTOLIC = '8480-6';
const DIASTOLIC = '8462-4';

const day = (d: Date) => d.toISOString().slice(0, 10);

export function withUnit(n: number, ucum: string | null): string {
  const u = unitDisplay(ucum ?? '');
  return u ? `${formatNumber(n)} ${u}` : formatNumber(n);
}

/** Two places beyond the recorded precision: enough to see which side of a cut-point a converted value falls. */
function shown(n: number, p: EngineParameter): number {
  const d = p.validation_rules?.decimals;
  const places = (Number.isInteger(d) ? (d as number) : 2) + 2;
  return Number(n.toFixed(places));
}

export function detailOf(p: EngineParameter, v: ObservedValue, now: Date): AnswerDetailJson {
  const converted = v.unit !== (p.units ?? '');
  const base = {
    parameter_id: p.id,
    parameter_name: p.name,
    display_name: p.display_name,
    units: p.units ?? null,
    unit: v.unit,
    observed_at: v.at.toISOString(),
    answered_at: now.toISOString(),
  };
  if (typeof v.value !== 'number') {
    // "< 15": an interval, decided three-valued like a band the clinician chose.
    const bound = v.value.max ?? v.value.min!;
    const given = givenText({ value: v.entered_value, comparator: v.comparator, unit: v.unit });
    return {
      ...base,
      value: v.value as RangeAnswer as AnswerDetailJson['value'],
      ...(converted ? { entered_value: comparatorBand(v) } : {}),
      entered_as: 'band',
      label: converted ? `${given} (${v.comparator} ${withUnit(shown(bound, p), p.units ?? null)})` : given,
    };
  }
  return {
    ...base,
    value: v.value,
    ...(converted ? { entered_value: v.entered_value } : {}),
    entered_as: 'typed',
    label: converted
      ? `${withUnit(v.entered_value, v.unit)} (${withUnit(shown(v.value, p), p.units ?? null)})`
      : withUnit(v.value, p.units ?? null),
  };
}

/** The interval as the EHR gave it, in its own unit. */
function comparatorBand(v: ObservedValue): AnswerDetailJson['entered_value'] {
  const below = v.comparator === '<' || v.comparator === '<=';
  return {
    type: 'range',
    min: below ? null : v.entered_value,
    max: below ? v.entered_value : null,
    min_inclusive: v.comparator !== '>',
    max_inclusive: v.comparator !== '<',
  };
}

/**
 * A diastolic pressure at or above the systolic is an error of the record (swapped fields, a typing
 * slip), never a crisis: both are set aside, so no card stands on either.
 */
export function implausiblePressures(
  measured: readonly Measured[],
  observed: Map<string, ObservedValue>,
  missing: Map<string, NoValue>,
): string[] {
  const out: string[] = [];
  for (const s of measured.filter((m) => m.loinc === SYSTOLIC)) {
    for (const d of measured.filter((m) => m.loinc === DIASTOLIC)) {
      const sv = observed.get(s.parameter.id);
      const dv = observed.get(d.parameter.id);
      const si = sv && readInterval(sv.value);
      const di = dv && readInterval(dv.value);
      if (!si || !di || di.lo < si.hi) continue;
      const text = (m: Measured, v: ObservedValue) =>
        `${m.parameter.display_name || m.parameter.name} ${givenText({ value: v.entered_value, comparator: v.comparator, unit: v.unit })} of ${day(v.at)}`;
      const why = 'the diastolic pressure is not below the systolic';
      out.push(`${text(s, sv!)} and ${text(d, dv!)} set aside: ${why}`);
      for (const [m, v] of [
        [s, sv!],
        [d, dv!],
      ] as const) {
        observed.delete(m.parameter.id);
        missing.set(m.parameter.id, { reason: 'set_aside', at: v.at, text: why });
      }
    }
  }
  return out;
}

export function patientDetailOf(p: EngineParameter, value: string | number | boolean, now: Date): AnswerDetailJson {
  const numeric = typeof value === 'number';
  return {
    parameter_id: p.id,
    parameter_name: p.name,
    display_name: p.display_name,
    units: p.units ?? null,
    value,
    unit: numeric ? (p.units ?? null) : null,
    entered_as: numeric ? 'typed' : 'option',
    label: numeric ? withUnit(value, p.units ?? null) : String(value),
    observed_at: null,
    answered_at: now.toISOString(),
  };
}

export function prefillOf(
  p: EngineParameter,
  value: string | number | boolean,
  unit: string | null,
  observedAt: string | null,
  source: CdsPrefillValue['source'],
): CdsPrefillValue {
  return { parameter_id: p.id, parameter_name: p.name, display_name: p.display_name, value, unit, observed_at: observedAt, source };
}
