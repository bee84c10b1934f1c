import { evaluatePreparedRule, prepareRule, type PreparedRule } from './evaluate';
import { typeClassOf } from './operators';
import { buildParameterIndex } from './parameters';
import { answerText, partitionBands } from './questions';
import type { EngineParameter, EngineRule, Finding, RangeAnswer } from './types';

/** One side of a publish: the rules a PCP gets and the parameter definitions they are read with. */
export interface RuleSide {
  rules: readonly EngineRule[];
  parameters: readonly EngineParameter[];
}

interface Side {
  prepared: PreparedRule[];
}

function prepare(side: RuleSide): Side {
  const index = buildParameterIndex(side.parameters);
  return { prepared: side.rules.map((rule) => prepareRule(rule, index)) };
}

/**
 * The rules reading `parameterId` that can still give a finding for a patient whose value is in
 * `band` (every other answer unknown): true or unknown, never false.
 */
function possibleFindings(side: Side, parameterId: string, band: RangeAnswer): PreparedRule[] {
  return side.prepared.filter(
    (p) =>
      p.conditions.some((c) => c.parameter?.id === parameterId && c.failure === null) &&
      evaluatePreparedRule(p, { [parameterId]: band }, { unanswered: 'unknown' }).result !== false,
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
  const b = prepare(before);
  const a = prepare(after);
  const byId = new Map<string, EngineParameter>();
  for (const p of [...before.parameters, ...after.parameters]) if (!byId.has(p.id)) byId.set(p.id, p);
  // Draft definitions win: the draft is what the warning is about.
  for (const p of after.parameters) byId.set(p.id, p);
  const all = [...before.rules, ...after.rules];
  const read = new Set<string>();
  for (const p of b.prepared) for (const c of p.conditions) if (c.parameter && c.failure === null) read.add(c.parameter.id);
  const findings: Finding[] = [];
  for (const id of read) {
    const parameter = byId.get(id)!;
    if (typeClassOf(parameter.data_type) !== 'numeric') continue;
    const bands = partitionBands(parameter, all, [...byId.values()]).map((band) => band.value as Required<RangeAnswer>);
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
