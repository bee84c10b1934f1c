import { evaluatePreparedRule, prepareRule, type PreparedRule } from './evaluate';
import { typeClassOf } from './operators';
import { buildParameterIndex } from './parameters';
import { prepareRuleSet } from './prepared';
import { answerText, partitionBands } from './questions';
import type { EngineParameter, EngineRule, Finding, RangeAnswer } from './types';

/** One side of a publish: the rules a PCP gets and the parameter definitions they are read with. */
export interface RuleSide {
  rules: readonly EngineRule[];
  parameters: readonly EngineParameter[];
}

/** Each side's rules prepared once, grouped by the parameters they read. */
type Readers = Map<string, PreparedRule[]>;

function readersOf(side: RuleSide): Readers {
  const index = buildParameterIndex(side.parameters);
  const readers: Readers = new Map();
  for (const rule of side.rules) {
    const prepared = prepareRule(rule, index);
    const ids = new Set(prepared.conditions.flatMap((c) => (c.parameter && c.failure === null ? [c.parameter.id] : [])));
    for (const id of ids) {
      const list = readers.get(id);
      if (list) list.push(prepared);
      else readers.set(id, [prepared]);
    }
  }
  return readers;
}

/**
 * The rules reading `parameterId` that can still give a finding for a patient whose value is in
 * `band` (every other answer unknown): true or unknown, never false.
 */
function possibleFindings(readers: Readers, parameterId: string, band: RangeAnswer): PreparedRule[] {
  return (readers.get(parameterId) ?? []).filter(
    (p) => evaluatePreparedRule(p, { [parameterId]: band }, { unanswered: 'unknown' }).result !== false,
  );
}

function limits(p: EngineParameter): { min: number; max: number } {
  const r = (p.validation_rules ?? {}) as { min?: unknown; max?: unknown };
  return {
    min: typeof r.min === 'number' && Number.isFinite(r.min) ? r.min : -Infinity,
    max: typeof r.max === 'number' && Number.isFinite(r.max) ? r.max : Infinity,
  };
}

/** False when no plausible value (validation min/max) lies in the band. */
function plausible(band: Required<RangeAnswer>, p: EngineParameter): boolean {
  const { min, max } = limits(p);
  const lo = band.min === null ? -Infinity : Number(band.min);
  const hi = band.max === null ? Infinity : Number(band.max);
  if (hi < min || (hi === min && !band.max_inclusive)) return false;
  if (lo > max || (lo === max && !band.min_inclusive)) return false;
  return true;
}

/**
 * Bands of a numeric parameter where the published rules could give a finding and the draft's can
 * give none (issue 20): raising the A1C diabetes cut-point from 6.5 to 7.0 % without moving
 * prediabetes leaves 6.5 to < 7 % with no finding. A warning, since it may be meant (a finding
 * retired on purpose), but a physician-administrator must say so. Bands are the partition at
 * every cut-point either side uses; only rules that read the parameter count, other answers being
 * unknown, so a rule that needs another value too still covers the band. Adjacent bands are merged.
 */
export function uncoveredBands(before: RuleSide, after: RuleSide): Finding[] {
  const b = readersOf(before);
  const a = readersOf(after);
  const byId = new Map<string, EngineParameter>();
  for (const p of before.parameters) if (!byId.has(p.id)) byId.set(p.id, p);
  // Draft definitions win: the draft is what the warning is about.
  for (const p of after.parameters) byId.set(p.id, p);
  const parameters = [...byId.values()];
  const all = [...before.rules, ...after.rules];
  const union = prepareRuleSet(all, parameters);
  const findings: Finding[] = [];
  for (const id of b.keys()) {
    const parameter = byId.get(id);
    if (!parameter || typeClassOf(parameter.data_type) !== 'numeric') continue;
    const bands = partitionBands(parameter, all, parameters, union).map((band) => band.value as Required<RangeAnswer>);
    let run: { band: Required<RangeAnswer>; lost: Set<string> } | null = null;
    const flush = () => {
      if (run) findings.push(uncoveredFinding(parameter, run.band, [...run.lost], before.rules));
      run = null;
    };
    for (const band of bands) {
      const was = plausible(band, parameter) ? possibleFindings(b, id, band) : [];
      const uncovered = was.length > 0 && possibleFindings(a, id, band).length === 0;
      if (!uncovered) {
        flush();
        continue;
      }
      if (run === null) run = { band: { ...band }, lost: new Set() };
      else run.band = { ...run.band, max: band.max, max_inclusive: band.max_inclusive };
      for (const p of was) run.lost.add(p.rule.id);
    }
    flush();
  }
  return findings;
}

function uncoveredFinding(parameter: EngineParameter, band: Required<RangeAnswer>, lost: string[], rules: readonly EngineRule[]): Finding {
  const name = parameter.display_name || parameter.name;
  const names = lost.map((id) => `"${rules.find((r) => r.id === id)?.name ?? id}"`);
  return {
    code: 'uncovered_band',
    severity: 'warning',
    rule_ids: lost,
    parameter_id: parameter.id,
    message:
      `${name} ${answerText(parameter, band)}: no rule gives a finding in this range any more. ` +
      `The published version gave ${names.join(', ')}; after publishing, patients with these values get no finding from ${name}. ` +
      'Extend a rule to cover the range, or acknowledge if the change is intended.',
  };
}
