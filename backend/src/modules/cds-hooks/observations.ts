import type { EngineParameter } from '@cds/engine';
import { DomainError } from '../../common/errors';
import { numericLimits, isNumericParameter } from '../assessments';

export const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const DAY_MS = 86_400_000;

/**
 * How old a value may be and still count, when the parameter does not say
 * (validation_rules.lookback_days). HbA1c reflects 2 to 3 months, so 90 days; fasting glucose
 * likewise; blood pressure is re-measured at every visit, so 30 days; BMI, UACR and eGFR are
 * yearly checks, so 365 days. Anything else: 365 days.
 */
const DEFAULT_LOOKBACK_DAYS: Record<string, number> = {
  '4548-4': 90,
  '1558-6': 90,
  '8480-6': 30,
  '8462-4': 30,
  '39156-5': 365,
  '9318-7': 365,
  '33914-3': 365,
  '62238-1': 365,
};
const FALLBACK_LOOKBACK_DAYS = 365;

/** Panels that carry a code as a component: blood pressure is often recorded as the panel 85354-9. */
const PANELS_WITH: Record<string, string[]> = {
  '8480-6': ['85354-9'],
  '8462-4': ['85354-9'],
};

/** The codes an Observation search for this LOINC code asks for: the code itself and any panel that carries it. */
export function searchCodes(loinc: string): string[] {
  return [loinc, ...(PANELS_WITH[loinc] ?? [])];
}

export function lookbackDays(parameter: EngineParameter, loinc: string): number {
  const own = parameter.validation_rules?.lookback_days;
  return typeof own === 'number' && Number.isInteger(own) && own > 0 ? own : (DEFAULT_LOOKBACK_DAYS[loinc] ?? FALLBACK_LOOKBACK_DAYS);
}

/** Statuses whose value stands; preliminary, cancelled and entered-in-error ones do not. */
const USABLE_STATUS = new Set(['final', 'amended', 'corrected']);

export interface ObservedValue {
  /** In the parameter's unit. */
  value: number;
  /** As the Observation gave it. */
  entered_value: number;
  unit: string;
  at: Date;
  observation_id: string | null;
}

/** Why an Observation gave no value: shown on the undetermined card. */
export interface NoValue {
  reason: 'no_observation' | 'stale' | 'no_date';
  at?: Date;
  lookback_days?: number;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const invalidPrefetch = (key: string, message: string) =>
  new DomainError('invalid_prefetch', `prefetch.${key}: ${message}`, [{ field: `prefetch.${key}`, message }]);

/** The resources of a searchset Bundle (or an empty list for null = "no data found"), all of one type. */
export function bundleResources(key: string, value: unknown, resourceType: string): Json[] {
  if (value === null) return [];
  if (!isObject(value) || value.resourceType !== 'Bundle') throw invalidPrefetch(key, `must be a Bundle of ${resourceType} resources`);
  const entries = value.entry ?? [];
  if (!Array.isArray(entries)) throw invalidPrefetch(key, 'Bundle.entry must be a list');
  const resources: Json[] = [];
  for (const e of entries) {
    const r = isObject(e) ? e.resource : undefined;
    // A search may include an OperationOutcome (search.mode = outcome); it carries no data.
    if (isObject(r) && r.resourceType === 'OperationOutcome') continue;
    if (!isObject(r) || r.resourceType !== resourceType)
      throw invalidPrefetch(
        key,
        `holds a ${isObject(r) ? String(r.resourceType).slice(0, 50) : 'non-resource'} where ${resourceType} was expected`,
      );
    resources.push(r);
  }
  return resources;
}

function codes(concept: unknown): string[] {
  if (!isObject(concept) || !Array.isArray(concept.coding)) return [];
  return concept.coding
    .filter((c): c is Json => isObject(c) && c.system === LOINC && typeof c.code === 'string')
    .map((c) => c.code as string);
}

function effectiveAt(o: Json): Date | null {
  const period = isObject(o.effectivePeriod) ? o.effectivePeriod : {};
  const raw = o.effectiveDateTime ?? o.effectiveInstant ?? period.end ?? period.start ?? o.issued;
  if (typeof raw !== 'string') return null;
  const t = Date.parse(raw);
  return Number.isNaN(t) ? null : new Date(t);
}

/** The Observation's quantity for this LOINC code: its own value, or a component's (a blood-pressure panel). */
function quantityFor(o: Json, loinc: string): Json | null {
  if (codes(o.code).includes(loinc)) return isObject(o.valueQuantity) ? o.valueQuantity : null;
  for (const c of Array.isArray(o.component) ? o.component : []) {
    if (isObject(c) && codes(c.code).includes(loinc)) return isObject(c.valueQuantity) ? c.valueQuantity : null;
  }
  return null;
}

/**
 * The latest usable value of one LOINC code for the patient, in the parameter's unit. A value older
 * than the lookback window counts as unknown. A unit that cannot be converted, or a value outside
 * the parameter's plausible limits, is refused (422): guessing would risk a wrong card.
 */
export function latestValue(
  key: string,
  observations: readonly Json[],
  patientId: string,
  parameter: EngineParameter,
  loinc: string,
  now: Date,
): ObservedValue | NoValue {
  const candidates: { o: Json; q: Json; at: Date | null }[] = [];
  for (const o of observations) {
    const subject = isObject(o.subject) ? o.subject.reference : undefined;
    if (subject !== `Patient/${patientId}`)
      throw invalidPrefetch(key, `holds an Observation about ${String(subject ?? 'no patient').slice(0, 80)}, not Patient/${patientId}`);
    if (typeof o.status !== 'string' || !USABLE_STATUS.has(o.status)) continue;
    const q = quantityFor(o, loinc);
    if (q) candidates.push({ o, q, at: effectiveAt(o) });
  }
  if (!candidates.length) return { reason: 'no_observation' };
  const dated = candidates.filter((c) => c.at !== null).sort((a, b) => b.at!.getTime() - a.at!.getTime());
  if (!dated.length) return { reason: 'no_date' };
  const { o, q, at } = dated[0];
  const days = lookbackDays(parameter, loinc);
  if (now.getTime() - at!.getTime() > days * DAY_MS) return { reason: 'stale', at: at!, lookback_days: days };

  const name = parameter.display_name || parameter.name;
  const refuse = (code: 'unit_not_accepted' | 'out_of_range', message: string) =>
    new DomainError(code, message, [{ field: `prefetch.${key}`, message }]);
  if (typeof q.value !== 'number' || !Number.isFinite(q.value)) throw invalidPrefetch(key, `${name} Observation has no numeric value`);
  if (q.system !== undefined && q.system !== UCUM)
    throw refuse('unit_not_accepted', `${name} is given in a unit outside UCUM (${String(q.system).slice(0, 100)})`);
  const unit = typeof q.code === 'string' ? q.code : typeof q.unit === 'string' ? q.unit : null;
  const own = parameter.units ?? null;
  const limits = numericLimits(parameter);
  if (!isNumericParameter(parameter)) throw invalidPrefetch(key, `${name} is not a measured value`);
  let value = q.value;
  if (unit !== own) {
    const conversion = limits.units.find((u) => u.code === unit);
    if (!conversion) {
      const accepted = [own, ...limits.units.map((u) => u.code)].filter(Boolean).join(' or ');
      throw refuse(
        'unit_not_accepted',
        `${name} is given in ${String(unit ?? 'no unit').slice(0, 50)}, which cannot be converted to ${own}; accepted: ${accepted}`,
      );
    }
    value = q.value * conversion.factor + (conversion.offset ?? 0);
  }
  if ((limits.min !== null && value < limits.min) || (limits.max !== null && value > limits.max))
    throw refuse(
      'out_of_range',
      `${name} ${q.value} ${unit ?? ''} is outside the plausible range ${limits.min} to ${limits.max} ${own ?? ''}`.trim(),
    );
  return { value, entered_value: q.value, unit: unit ?? own ?? '', at: at!, observation_id: typeof o.id === 'string' ? o.id : null };
}
