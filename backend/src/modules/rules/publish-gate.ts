import type { EntityManager } from 'typeorm';
import {
  analyzeRuleSet,
  ruleSeverity,
  runVignette,
  uncoveredBands,
  vignettePasses,
  type Answers,
  type EngineParameter,
  type EngineRule,
  type Finding,
  type VignetteResult,
} from '@cds/engine';
import type { FailingVignetteJson, FiredRuleJson, VignetteJson, VignetteRunJson } from '@cds/contracts';
import { iso, sha256 } from '../../common/api-helpers';
import { analysisParameters } from './rule-store';
import { publishedRuleSetRows } from './rule-versions.repository';
import type { RuleSetTestCase } from './rule-set-test-case.entity';
import { vignettesOfSets } from './rule-sets.repository';

/**
 * What a PCP would get if this rule set's draft were published: the latest version of every
 * other active published rule set, together with the draft. Analysis and vignettes run on this
 * combination, since that is what decides a patient's findings, not one set alone.
 */
export interface Combination {
  ruleSetId: string;
  rules: EngineRule[];
  parameters: EngineParameter[];
  /** Ids of the draft's rules. */
  own: Set<string>;
  /** Rule id → its rule set's id and name. */
  ruleSets: Map<string, { id: string; name: string }>;
  /** Version ids of the other active published sets, sorted: what a PCP gets besides this set. */
  otherVersions: string[];
}

/** Changes whenever another active rule set is published, deactivated or deleted. */
export function combinationHash(c: Pick<Combination, 'otherVersions'>): string {
  return sha256(c.otherVersions.join(','));
}

export async function loadCombination(
  m: EntityManager,
  ruleSet: { id: string; name: string },
  draft: readonly EngineRule[],
): Promise<Combination> {
  const others = await publishedRuleSetRows(m, ruleSet.id);
  const ruleSets = new Map<string, { id: string; name: string }>();
  const rules: EngineRule[] = [];
  for (const o of others) {
    for (const r of o.rules) {
      rules.push({
        ...r,
        rule_set_id: o.rule_set_id,
        version: Number(o.number),
        ...(r.source || o.source ? { source: r.source || o.source } : {}),
      });
      ruleSets.set(r.id, { id: o.rule_set_id, name: o.name });
    }
  }
  const own = { id: ruleSet.id, name: ruleSet.name };
  for (const r of draft) {
    rules.push(r);
    ruleSets.set(r.id, own);
  }
  // Current definitions first; a parameter deleted since another set was published keeps its snapshot.
  const parameters = await analysisParameters(m);
  const known = new Set(parameters.map((p) => p.id));
  for (const o of others) {
    for (const p of o.parameters) {
      if (!known.has(p.id)) {
        parameters.push(p);
        known.add(p.id);
      }
    }
  }
  const otherVersions = others.map((o) => o.version_id).sort();
  return { ruleSetId: ruleSet.id, rules, parameters, own: new Set(draft.map((r) => r.id)), ruleSets, otherVersions };
}

/** Findings that concern at least one of the draft's rules (another set's own problems are its publisher's). */
export function combinationFindings(c: Combination): Finding[] {
  return analyzeRuleSet(c.rules, c.parameters).filter((f) => f.rule_ids.some((id) => c.own.has(id)));
}

/**
 * Ranges of a parameter where what a PCP gets now (the latest version of this set with every
 * other active published set, read with the parameters as published) could give a finding and the
 * combination after publishing gives none (issue 20): raising the A1C cut-point to 7.0 % without
 * moving prediabetes leaves 6.5 to < 7 % with no finding. Warnings, so they need an acknowledgement.
 */
export function uncoveredFindings(
  c: Combination,
  latest: { number: number; rules: EngineRule[]; parameters: EngineParameter[] } | null,
): Finding[] {
  if (!latest) return [];
  const published = latest.rules.map((r) => ({ ...r, rule_set_id: c.ruleSetId, version: latest.number }));
  const ids = new Set(latest.parameters.map((p) => p.id));
  return uncoveredBands(
    {
      rules: [...c.rules.filter((r) => !c.own.has(r.id)), ...published],
      parameters: [...latest.parameters, ...c.parameters.filter((p) => !ids.has(p.id))],
    },
    { rules: c.rules, parameters: c.parameters },
  );
}

export function describeRun(c: Combination, result: VignetteResult): VignetteRunJson {
  const byId = new Map(c.rules.map((r) => [r.id, r]));
  const describe = (id: string): FiredRuleJson => {
    const rule = byId.get(id);
    const set = c.ruleSets.get(id);
    return {
      rule_id: id,
      rule_name: rule?.name ?? '(rule no longer active)',
      rule_set_id: set?.id ?? null,
      rule_set_name: set?.name ?? null,
      severity: rule ? ruleSeverity(rule) : 'low',
      priority: rule?.priority ?? 0,
    };
  };
  return {
    fired: result.fired.map(describe),
    primary: result.primary ? describe(result.primary) : null,
    undetermined: result.undetermined.map(describe),
  };
}

export function runOn(c: Combination, answers: Answers, referenceDate: Date | null): VignetteResult {
  return runVignette(c.rules, c.parameters, answers, { now: referenceDate ?? new Date() });
}

export function vignetteJson(c: Combination, v: RuleSetTestCase): VignetteJson {
  const result = runOn(c, v.answers, v.reference_date);
  return {
    id: v.id,
    rule_set_id: v.rule_set_id,
    name: v.name,
    answers: v.answers,
    expected_fired: v.expected_fired,
    expected_primary: v.expected_primary,
    reference_date: iso(v.reference_date),
    actual: describeRun(c, result),
    passed: vignettePasses({ fired: v.expected_fired, primary: v.expected_primary }, result),
    created_by: v.created_by,
    created_at: iso(v.created_at)!,
    updated_at: iso(v.updated_at)!,
  };
}

/**
 * The vignettes of every rule set in the combination, run on it: publishing this set must not
 * change what another set's vignettes expect a patient to get.
 */
export async function failingVignettes(m: EntityManager, c: Combination): Promise<FailingVignetteJson[]> {
  const setIds = [...new Set([c.ruleSetId, ...[...c.ruleSets.values()].map((s) => s.id)])];
  const names = new Map([...c.ruleSets.values()].map((s) => [s.id, s.name]));
  const cases = await vignettesOfSets(m, setIds);
  const failures: FailingVignetteJson[] = [];
  for (const v of cases) {
    const result = runOn(c, v.answers, v.reference_date);
    if (vignettePasses({ fired: v.expected_fired, primary: v.expected_primary }, result)) continue;
    failures.push({
      test_case_id: v.id,
      test_case_name: v.name,
      rule_set_id: v.rule_set_id,
      rule_set_name: names.get(v.rule_set_id) ?? '',
      expected_fired: v.expected_fired,
      expected_primary: v.expected_primary,
      actual: describeRun(c, result),
    });
  }
  return failures;
}
