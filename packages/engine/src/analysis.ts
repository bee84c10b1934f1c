import {
  aboveLower,
  atomSignature,
  belowUpper,
  byKeyAndKind,
  groupImplies,
  groupStatus,
  orderedOf,
  type Bound,
  type GroupStatus,
} from './analysis-constraints';
import { decimalPlaces, decimalsFor, Grid } from './analysis-precision';
import { rankFindings } from './vignettes';
import type { PreparedCondition } from './condition';
import { prepareRule, type PreparedRule } from './evaluate';
import { isValidLogic, readCondition } from './normalize';
import { operatorsForDataType } from './operators';
import { buildParameterIndex } from './parameters';
import type { EngineParameter, EngineRule, Finding, Severity } from './types';
import { validateCondition } from './validate';

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

function nameOf(c: PreparedCondition): string {
  return c.parameter ? c.parameter.display_name || c.parameter.name : c.reference;
}

function dayText(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

/** A condition in words a clinician reads without knowing the operator names. */
export function describeCondition(c: PreparedCondition): string {
  const t = c.domain === 'date' ? dayText(c.num) : String(c.num);
  if (c.domain === 'boolean') return c.op === 'equals' ? String(c.bool === 1) : `not ${String(c.bool === 1)}`;
  if (c.domain === 'text_exact') return c.op === 'equals' ? `"${c.text}"` : `other than "${c.text}"`;
  switch (c.op) {
    case 'greater_than':
      return `above ${t}`;
    case 'greater_equal':
      return `${t} or above`;
    case 'less_than':
      return `below ${t}`;
    case 'less_equal':
      return `${t} or below`;
    case 'equals':
      return c.domain === 'date' ? `on ${t}` : `exactly ${t}`;
    case 'not_equals':
      return c.domain === 'date' ? `on a day other than ${t}` : `other than ${t}`;
    case 'before':
      return `before ${t}`;
    case 'after':
      return `after ${t}`;
    case 'within_days':
      return `within ${t} days of the assessment`;
    case 'contains':
      return `containing "${c.text}"`;
    case 'starts_with':
      return `starting with "${c.text}"`;
    default:
      return `ending with "${c.text}"`;
  }
}

function conflictText(atoms: PreparedCondition[]): string {
  const parts = atoms.map(describeCondition);
  const list =
    parts.length === 2 ? `both ${parts[0]} and ${parts[1]}` : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]} at once`;
  return `${nameOf(atoms[0])} cannot be ${list}`;
}

interface RuleModel {
  rule: EngineRule;
  prepared: PreparedRule;
  groups: PreparedCondition[][];
  statuses: GroupStatus[];
  /** Groups that some answer can satisfy. */
  live: PreparedCondition[][];
  signature: string;
}

function model(rule: EngineRule, prepared: PreparedRule): RuleModel {
  const groups = prepared.groups.map((g) => g.map((i) => prepared.conditions[i]));
  const statuses = groups.map(groupStatus);
  const live = groups.filter((_, i) => statuses[i].status === 'feasible' || statuses[i].status === 'range_only');
  const signature = groups
    .map((g) => [...new Set(g.map(atomSignature))].sort().join('\u0001'))
    .sort()
    .join('\u0002');
  return { rule, prepared, groups, statuses, live, signature };
}

/** Every answer that fires `b` also fires `a`. */
function ruleImplies(b: RuleModel, a: RuleModel): boolean {
  if (b.live.length === 0 || a.live.length === 0) return false;
  return b.live.every((gb) => a.groups.some((ga) => ga.every((atom) => groupImplies(gb, atom))));
}

function conditionFindings(m: RuleModel): Finding[] {
  const findings: Finding[] = [];
  const { rule } = m;
  const label = `Rule "${rule.name}"`;
  for (const c of m.prepared.conditions) {
    const position = `condition ${c.index + 1}`;
    const base = { rule_ids: [rule.id], ...(c.parameter ? { parameter_id: c.parameter.id } : {}) };
    if (!c.resolved) {
      findings.push({
        ...base,
        code: 'missing_parameter',
        severity: 'error',
        message:
          c.reference === ''
            ? `${label}: ${position} does not name a parameter, so it can never be answered.`
            : `${label}: ${position} uses the parameter "${c.reference}", which does not exist, so it can never be answered.`,
      });
    } else {
      const p = c.resolved.parameter;
      if (p.is_active === false) {
        findings.push({
          ...base,
          code: 'inactive_parameter',
          severity: 'warning',
          message: `${label}: ${position} uses the inactive parameter ${nameOf(c)}, which is no longer asked.`,
        });
      }
      if (c.resolved.ambiguous) {
        findings.push({
          ...base,
          code: 'ambiguous_parameter',
          severity: 'warning',
          message: `${label}: ${position} refers to "${c.reference}", which fits more than one parameter; ${nameOf(c)} (${p.id}) is used.`,
        });
      }
      if (c.resolved.matchedBy !== 'id') {
        findings.push({
          ...base,
          code: 'parameter_by_name',
          severity: 'info',
          message: `${label}: ${position} refers to ${nameOf(c)} by name rather than by id; renaming the parameter would break it.`,
        });
      }
    }
    if (c.op === null) {
      findings.push({
        ...base,
        code: 'unknown_operator',
        severity: 'error',
        message: `${label}: ${position} uses the unknown operator "${c.operator}" on ${nameOf(c)}; it always fails.`,
      });
      continue;
    }
    if (c.parameter && !operatorsForDataType(c.parameter.data_type).includes(c.op)) {
      findings.push({
        ...base,
        code: 'operator_invalid_for_type',
        severity: 'error',
        message: `${label}: ${position} compares ${nameOf(c)} (${c.parameter.data_type}) with "${c.op}", which does not apply to that kind of value.`,
      });
    }
    if (c.parameter) {
      const valueProblem = validateCondition(rule.conditions[c.index], c.parameter).find((e) => e.field === 'value');
      if (c.failure === 'invalid_threshold') {
        findings.push({
          ...base,
          code: 'invalid_value',
          severity: 'error',
          message: `${label}: ${position} can never be true: ${valueProblem?.message ?? `${JSON.stringify(c.threshold)} cannot be compared.`}`,
        });
      } else if (valueProblem) {
        findings.push({
          ...base,
          code: 'invalid_value',
          severity: 'warning',
          message: `${label}: ${position} is read as ${describeCondition(c)}, but it is stored in the wrong form: ${valueProblem.message}`,
        });
      }
    } else if (c.failure === 'invalid_threshold') {
      findings.push({
        ...base,
        code: 'invalid_value',
        severity: 'error',
        message: `${label}: ${position} can never be true: ${JSON.stringify(c.threshold) ?? String(c.threshold)} cannot be compared with "${c.op}".`,
      });
    }
  }
  (Array.isArray(rule.conditions) ? rule.conditions : []).forEach((raw, i) => {
    const logic = readCondition(raw).logic;
    if (!isValidLogic(logic)) {
      findings.push({
        code: 'invalid_logic',
        severity: 'warning',
        rule_ids: [rule.id],
        message: `${label}: condition ${i + 1} is joined to the next by "${String(logic)}", which is read as AND.`,
      });
    }
  });
  return findings;
}

function ruleFindings(m: RuleModel): Finding[] {
  const findings: Finding[] = [];
  const { rule } = m;
  if (m.groups.length === 0) {
    findings.push({
      code: 'no_conditions',
      severity: 'error',
      rule_ids: [rule.id],
      message: `Rule "${rule.name}" has no conditions, so it can never fire.`,
    });
  }
  if (!Array.isArray(rule.actions) || rule.actions.length === 0) {
    findings.push({
      code: 'no_actions',
      severity: 'warning',
      rule_ids: [rule.id],
      message: `Rule "${rule.name}" has no actions: when it fires, the clinician is given no advice.`,
    });
  }
  const contradictions = m.statuses.filter(
    (s): s is Extract<GroupStatus, { status: 'infeasible' | 'range_only' }> => s.status === 'infeasible' || s.status === 'range_only',
  );
  const reasons = [...new Set(contradictions.map((s) => conflictText(s.atoms)))];
  const parameterId = contradictions[0]?.atoms[0].parameter?.id;
  const withParameter = parameterId ? { parameter_id: parameterId } : {};
  if (m.groups.length > 0 && m.live.length === 0 && contradictions.length > 0) {
    findings.push({
      code: 'unsatisfiable_rule',
      severity: 'error',
      rule_ids: [rule.id],
      ...withParameter,
      message: `Rule "${rule.name}" can never fire: ${reasons.join('; ')}.`,
    });
  } else if (contradictions.some((s) => s.status === 'infeasible')) {
    findings.push({
      code: 'partly_unsatisfiable_rule',
      severity: 'warning',
      rule_ids: [rule.id],
      ...withParameter,
      message: `Part of rule "${rule.name}" can never match: ${reasons.join('; ')}.`,
    });
  }
  if (m.live.length > 0 && m.live.every((g) => groupStatus(g).status === 'range_only')) {
    findings.push({
      code: 'unsatisfiable_rule',
      severity: 'warning',
      rule_ids: [rule.id],
      ...withParameter,
      message: `Rule "${rule.name}" can only fire when the answer is given as a range: ${reasons.join('; ')} as a single value.`,
    });
  }
  return findings;
}

function duplicateAndShadowFindings(models: RuleModel[]): Finding[] {
  const findings: Finding[] = [];
  const ranked = rankFindings(models.map((m) => m.rule)).map((r) => models.find((m) => m.rule === r)!);
  const reported = new Set<RuleModel>();
  ranked.forEach((b, position) => {
    if (b.live.length === 0) return;
    for (let i = 0; i < position; i++) {
      const a = ranked[i];
      if (a.live.length === 0) continue;
      if (a.signature === b.signature) {
        const sameActions = JSON.stringify(a.rule.actions) === JSON.stringify(b.rule.actions);
        findings.push({
          code: 'duplicate_rule',
          severity: 'warning',
          rule_ids: [a.rule.id, b.rule.id],
          message: sameActions
            ? `Rules "${a.rule.name}" and "${b.rule.name}" are duplicates: same conditions and same actions.`
            : `Rules "${a.rule.name}" and "${b.rule.name}" have the same conditions but different actions: they always fire together, and "${a.rule.name}" is shown first.`,
        });
        reported.add(b);
        return;
      }
    }
    if (reported.has(b)) return;
    for (let i = 0; i < position; i++) {
      const a = ranked[i];
      if (ruleImplies(b, a)) {
        findings.push({
          code: 'shadowed_rule',
          severity: 'warning',
          rule_ids: [a.rule.id, b.rule.id],
          message: `Rule "${b.rule.name}" is never the primary recommendation: whenever it fires, "${a.rule.name}", which ranks above it, fires too.`,
        });
        return;
      }
    }
  });
  return findings;
}

interface Band {
  model: RuleModel;
  group: PreparedCondition[];
  lower: Bound | null;
  upper: Bound | null;
  eqs: number[];
  nes: number[];
}

function contains(band: Band, t: number): boolean {
  return aboveLower(t, band.lower) && belowUpper(t, band.upper) && band.eqs.every((e) => e === t) && !band.nes.includes(t);
}

/** Could one patient satisfy both groups' conditions on every other parameter? */
function compatibleElsewhere(a: Band, b: Band, key: string): boolean {
  const others = [...a.group, ...b.group].filter((c) => c.key !== key);
  const status = groupStatus(others).status;
  return status === 'feasible' || status === 'range_only';
}

/** Grid units in [from, to] that no band contains (bounded: a region wider than this is never reported). */
function uncovered(grid: Grid, from: number, to: number, bands: readonly Band[]): number[] {
  const out: number[] = [];
  for (let x = from; x <= to && x - from < 100_000; x++) {
    const v = grid.value(x);
    if (!bands.some((band) => contains(band, v))) out.push(x);
  }
  return out;
}

/** Whether the two cut-points were meant to meet: the same value, or neighbours at the precision they are written at. */
function meantToMeet(a: Bound, b: Bound, grid: Grid, lo: number, hi: number): boolean {
  if (a.value === b.value) return true;
  const written = new Grid(Math.max(decimalPlaces(a.value), decimalPlaces(b.value)));
  if (written.decimals >= grid.decimals) return false;
  const scale = grid.scale / written.scale;
  // Empty at the written precision, non-empty at the recorded one.
  return Math.ceil(lo / scale) > Math.floor(hi / scale);
}

function span(grid: Grid, units: readonly number[]): string {
  const first = grid.value(units[0]);
  const last = grid.value(units[units.length - 1]);
  return units.length === 1 ? `of exactly ${first}` : `from ${first} to ${last}`;
}

/**
 * Cut-points shared by neighbouring rules, on the grid of values the parameter is recorded at
 * (validation_rules.decimals, or the precision its thresholds are written at): '< 6.5' and
 * '> 6.5' leave 6.5 matched by neither (unless another rule covers it); '<= 6.5' and '>= 6.5'
 * match it twice; '<= 5.6' and '>= 5.7' meet at one decimal but leave 5.61 to 5.69 at two.
 * Rules whose other conditions exclude each other (different patients) are not compared, and
 * bands far apart ('< 5.7' and '>= 6.5') are a deliberate hole, not a gap.
 */
function cutPointFindings(models: RuleModel[]): Finding[] {
  const bandsByKey = new Map<string, Band[]>();
  for (const m of models) {
    for (const group of m.live) {
      for (const [kindKey, atoms] of byKeyAndKind(group)) {
        if (!kindKey.startsWith('numeric\u0000')) continue;
        const o = orderedOf(atoms);
        const band: Band = { model: m, group, lower: o.lower, upper: o.upper, eqs: o.eqs.map((e) => e.num), nes: o.nes.map((n) => n.num) };
        const key = atoms[0].key;
        const list = bandsByKey.get(key);
        if (list) list.push(band);
        else bandsByKey.set(key, [band]);
      }
    }
  }
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const [key, bands] of bandsByKey) {
    const parameter = bands.flatMap((b) => b.group).find((c) => c.key === key)?.parameter ?? null;
    const thresholds = bands
      .flatMap((b) => [b.lower?.value, b.upper?.value, ...b.eqs, ...b.nes])
      .filter((v): v is number => v !== undefined);
    const grid = new Grid(decimalsFor(parameter, thresholds));
    for (const below of bands) {
      if (!below.upper) continue;
      const u = below.upper;
      const partners = bands.filter((b) => b.model !== below.model && b.lower && compatibleElsewhere(below, b, key));
      // Gap: the nearest band that starts at or after this one ends.
      const after = partners.filter((b) => b.lower!.value >= u.value);
      const nearest = after.length ? Math.min(...after.map((b) => b.lower!.value)) : null;
      for (const above of after.filter((b) => b.lower!.value === nearest)) {
        const l = above.lower!;
        const from = grid.ceil(u.value, !u.strict);
        const to = grid.floor(l.value, !l.strict);
        if (from > to || !meantToMeet(u, l, grid, from, to)) continue;
        const hole = uncovered(grid, from, to, bands);
        if (hole.length) findings.push(...report('gap', key, below, above, grid, hole, seen));
      }
      // Overlap: a band that starts where this one ends, or one recorded step before.
      for (const above of partners.filter((b) => b.lower!.value <= u.value)) {
        const l = above.lower!;
        const from = grid.ceil(l.value, l.strict);
        const to = grid.floor(u.value, u.strict);
        if (from > to || !meantToMeet(l, u, grid, from, to)) continue;
        const units = Array.from({ length: to - from + 1 }, (_, i) => from + i);
        findings.push(...report('overlap', key, below, above, grid, units, seen));
      }
    }
  }
  return findings;
}

function report(kind: 'gap' | 'overlap', key: string, below: Band, above: Band, grid: Grid, units: number[], seen: Set<string>): Finding[] {
  const id = `${kind}\u0000${key}\u0000${units[0]}\u0000${below.model.rule.id}\u0000${above.model.rule.id}`;
  if (seen.has(id)) return [];
  seen.add(id);
  const atom = below.upper!.atom;
  const name = nameOf(atom);
  const a = below.model.rule.name;
  const b = above.model.rule.name;
  const where = span(grid, units);
  const precision =
    below.upper!.value === above.lower!.value ? '' : ` (recorded to ${grid.decimals} decimal${grid.decimals === 1 ? '' : 's'})`;
  return [
    {
      code: kind === 'gap' ? 'cut_point_gap' : 'cut_point_overlap',
      severity: 'warning',
      rule_ids: [below.model.rule.id, above.model.rule.id],
      ...(atom.parameter ? { parameter_id: atom.parameter.id } : {}),
      message:
        kind === 'gap'
          ? `${name} ${where}${precision} matches neither rule "${a}" (${describeCondition(below.upper!.atom)}) nor rule "${b}" (${describeCondition(above.lower!.atom)}).`
          : `${name} ${where}${precision} matches both rule "${a}" (${describeCondition(below.upper!.atom)}) and rule "${b}" (${describeCondition(above.lower!.atom)}).`,
    },
  ];
}

/**
 * Static analysis of a rule set: what can never fire, what repeats or hides another rule,
 * what refers to parameters that are missing, inactive or of the wrong type, and where
 * neighbouring rules leave a gap or overlap at a cut-point. Errors first, then warnings, then info.
 */
export function analyzeRuleSet(rules: readonly EngineRule[], parameters: readonly EngineParameter[]): Finding[] {
  const index = buildParameterIndex(parameters);
  const models = rules.map((rule) => model(rule, prepareRule(rule, index)));
  const findings = [
    ...models.flatMap((m) => [...ruleFindings(m), ...conditionFindings(m)]),
    ...duplicateAndShadowFindings(models),
    ...cutPointFindings(models),
  ];
  return findings
    .map((finding, position) => ({ finding, position }))
    .sort((a, b) => SEVERITY_ORDER[a.finding.severity] - SEVERITY_ORDER[b.finding.severity] || a.position - b.position)
    .map((entry) => entry.finding);
}
