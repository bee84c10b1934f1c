import type { Evaluated } from './findings';
import { answerText } from './questions';
import type { CanonicalOperator, EngineParameter, RuledOutItem } from './types';
import { unitDisplay } from './units';
import { isBlank } from './values';

/**
 * What a result with no finding says (issue 20): which conditions the answers ruled out, in
 * words a physician checks against the chart ("HbA1c 5.2 % is below 5.7 %"), never advice to
 * "consult with your healthcare provider", which the spec's patient-facing text said to a physician.
 */
export const NO_RULE_FIRED = 'No rule fired';

/** How a false condition reads: the side of the threshold the answer is on. */
const RULED_OUT_PHRASE: Readonly<Record<CanonicalOperator, string>> = {
  greater_equal: 'is below',
  greater_than: 'is not above',
  less_equal: 'is above',
  less_than: 'is not below',
  equals: 'is not',
  not_equals: 'is',
  contains: 'does not contain',
  starts_with: 'does not start with',
  ends_with: 'does not end with',
  before: 'is not before',
  after: 'is not after',
  within_days: 'is not within the last',
};

/**
 * Conditions on one side of a threshold are merged per parameter, keeping the one that says the
 * most: "below 5.7 %" implies "below 6.5 %", "above 140" implies "above 130".
 */
function direction(op: CanonicalOperator): 'below' | 'above' | null {
  if (op === 'greater_equal' || op === 'greater_than') return 'below';
  if (op === 'less_equal' || op === 'less_than') return 'above';
  return null;
}

/** True when `a` says more than `b` about the same side of a threshold. */
function tighter(a: RuledOutItem, b: RuledOutItem): boolean {
  const ta = Number(a.threshold);
  const tb = Number(b.threshold);
  if (direction(a.operator as CanonicalOperator) === 'below') {
    return ta < tb || (ta === tb && a.operator === 'greater_equal' && b.operator !== 'greater_equal');
  }
  return ta > tb || (ta === tb && a.operator === 'less_equal' && b.operator !== 'less_equal');
}

function thresholdText(op: CanonicalOperator, threshold: unknown, parameter: EngineParameter | null): string {
  if (op === 'within_days') return `${String(threshold)} days`;
  if (typeof threshold === 'boolean') return threshold ? 'Yes' : 'No';
  if (typeof threshold === 'string' && (op === 'contains' || op === 'starts_with' || op === 'ends_with')) return `"${threshold}"`;
  const unit = direction(op) ? unitDisplay(parameter?.units ?? null) : '';
  return unit ? `${String(threshold)} ${unit}` : String(threshold);
}

/**
 * The sentence for one ruled-out condition. `valueText` replaces the engine's reading of the
 * answer (the server passes the answer as the clinician entered it: "5 mmol/L (90 mg/dL)").
 */
export function ruledOutStatement(item: Omit<RuledOutItem, 'statement'>, parameter: EngineParameter | null, valueText?: string): string {
  const op = item.operator as CanonicalOperator;
  const value = valueText ?? (parameter ? answerText(parameter, item.value) : String(item.value));
  if (op === 'equals') return `${item.display_name} is ${value}, not ${thresholdText(op, item.threshold, parameter)}`;
  if (op === 'not_equals') return `${item.display_name} is ${value}`;
  return `${item.display_name} ${value} ${RULED_OUT_PHRASE[op]} ${thresholdText(op, item.threshold, parameter)}`;
}

/**
 * Every condition the answers made false, in the rules the answers ruled out (false, not
 * undecided), merged per parameter and side, in the order the ranked rules first use them.
 * Conditions that fail whatever the answer (unknown operator, unreadable threshold) are authoring
 * problems, reported in the debug log, not something the answers ruled out.
 */
export function ruledOutOf(evaluated: readonly Evaluated[]): RuledOutItem[] {
  const items = new Map<string, RuledOutItem & { parameter: EngineParameter | null }>();
  for (const { prepared, evaluation } of evaluated) {
    if (evaluation.result !== false) continue;
    for (const t of evaluation.trace) {
      const c = prepared.conditions[t.index];
      if (t.result !== false || c.failure !== null || c.op === null || isBlank(t.value)) continue;
      const side = direction(c.op);
      const key = side ? `${c.key}\u0000${side}` : `${c.key}\u0000${c.op}\u0000${JSON.stringify(c.threshold)}`;
      const candidate = {
        parameter_id: t.parameter_id,
        parameter_name: t.parameter_name,
        display_name: c.parameter ? c.parameter.display_name || c.parameter.name : t.parameter,
        units: c.parameter && typeof c.parameter.units === 'string' && c.parameter.units !== '' ? c.parameter.units : null,
        operator: c.op,
        threshold: c.threshold,
        value: t.value,
        rule_names: [prepared.rule.name],
        parameter: c.parameter,
      };
      const seen = items.get(key);
      if (!seen) {
        items.set(key, { ...candidate, statement: '' });
        continue;
      }
      const rules = seen.rule_names.includes(prepared.rule.name) ? seen.rule_names : [...seen.rule_names, prepared.rule.name];
      // Keep the first-use position (Map order) while taking the tighter condition's wording.
      items.set(
        key,
        side && tighter({ ...candidate, statement: '' }, seen)
          ? { ...candidate, rule_names: rules, statement: '' }
          : { ...seen, rule_names: rules },
      );
    }
  }
  return [...items.values()].map(({ parameter, ...item }) => ({ ...item, statement: ruledOutStatement(item, parameter) }));
}

/**
 * The one-line message of a result with no finding: what the answers ruled out, and whether
 * rules remain that could not be evaluated (listed beside it with their missing inputs).
 */
export function noFindingMessage(statements: readonly string[], undetermined: number): string {
  const pending =
    undetermined > 0
      ? ` ${undetermined} rule${undetermined === 1 ? '' : 's'} could not be evaluated for missing values: no finding is not a negative finding.`
      : '';
  if (statements.length > 0) return `${NO_RULE_FIRED}: ${statements.join('; ')}.${pending}`;
  if (undetermined > 0) return `${NO_RULE_FIRED}, and the answers ruled none out.${pending}`;
  return `${NO_RULE_FIRED}: no active rule applies to these answers.`;
}
