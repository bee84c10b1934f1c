import {
  analyzeRuleSet,
  buildParameterIndex,
  conditionsText,
  conditionText,
  criterionText,
  isAnyOf,
  unitDisplay,
  type Criterion,
  type CriterionSpec,
  type EngineRule,
  type PopulationCode,
} from '@cds/engine';
import type {
  ConformanceMeasureJson,
  MeasureCriterionJson,
  MeasureCriterionPartJson,
  MeasureDesignJson,
  MeasureDesignSummaryJson,
  MeasurePopulationJson,
  MeasureValueSetJson,
  MeasureVersionDetailJson,
  MeasureVersionJson,
} from '@cds/contracts';
import type { ShippedMeasure } from '../measure-content';
import { valueSetsOf } from '../measure-content';
import { measureVersion } from '../measure-version';
import { shippedVersionJson } from '../local-version';

/** The populations of a proportion measure, in the order a measure is read, and how each follows from the others. */
export const POPULATIONS: { code: PopulationCode; label: string; meaning: string }[] = [
  { code: 'initial-population', label: 'Initial population', meaning: 'Patients for whom any of these rules holds.' },
  {
    code: 'denominator',
    label: 'Denominator',
    meaning: 'The initial population (and any of these rules, when the measure has its own).',
  },
  {
    code: 'denominator-exclusion',
    label: 'Denominator exclusions',
    meaning: 'Denominator patients for whom any of these rules holds: removed before the numerator is counted.',
  },
  {
    code: 'denominator-exception',
    label: 'Denominator exceptions',
    meaning: 'Denominator patients not in the numerator for whom any of these rules holds.',
  },
  {
    code: 'numerator',
    label: 'Numerator',
    meaning: 'Denominator patients, not excluded, for whom any of these rules holds.',
  },
  { code: 'numerator-exclusion', label: 'Numerator exclusions', meaning: 'Numerator patients for whom any of these rules holds.' },
];

/** The codes of each value set, by canonical URL. */
export type Codes = ReadonlyMap<string, readonly string[]>;

/** What the designer shows of a shipped measure: its codes now and as shipped, its value sets' titles and its vignettes. */
export interface DesignInputs {
  /** The measure as published (the shipped definition, or a local version of it). */
  measure: ShippedMeasure;
  /** Version 1, the CMS definition as shipped (the official cases check it). */
  shipped?: ShippedMeasure;
  published?: MeasureVersionJson;
  draft?: MeasureVersionDetailJson | null;
  codes: Codes;
  shippedCodes: Codes;
  titles: ReadonlyMap<string, string>;
  deck: ConformanceMeasureJson | null;
  decksAvailable: boolean;
  today: Date;
}

const oidOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

function populationsOf(m: ShippedMeasure): MeasurePopulationJson[] {
  const index = buildParameterIndex(m.model.parameters);
  const byId = new Map(m.model.rules.map((r) => [r.id, r]));
  return POPULATIONS.filter((p) => p.code !== 'denominator-exception' && p.code !== 'numerator-exclusion')
    .concat(
      POPULATIONS.filter(
        (p) => (p.code === 'denominator-exception' || p.code === 'numerator-exclusion') && m.model.populations[p.code]?.length,
      ),
    )
    .map((p) => ({
      ...p,
      rules: (m.model.populations[p.code] ?? [])
        .map((id) => byId.get(id))
        .filter((r): r is EngineRule => !!r)
        .map((r) => ({
          id: r.id,
          name: r.name,
          text: conditionsText(r.conditions, index),
          conditions: r.conditions.map((c) => ({
            parameter_id: String(c.parameter),
            operator: String(c.operator),
            value: c.value,
            text: conditionText(c, index),
          })),
        })),
    }));
}

const RELATION_TEXT: Record<string, string> = {
  during: 'during',
  overlaps: 'overlaps',
  starts_during: 'starts during',
  ends_during: 'ends during',
  ends_by_end: 'ends by the end of',
  starts_by_end: 'starts by the end of',
};

function windowText(c: Criterion): string {
  const w = c.window;
  if (!w) return 'any time';
  if (w.anchor === 'now') return w.days !== undefined ? `in the last ${w.days} days` : 'any time before now';
  if (c.take === 'age') return `at the ${w.at ?? 'end'} of the measurement period`;
  const span =
    w.days !== undefined
      ? `the last ${w.days} days of the measurement period`
      : w.first_months !== undefined
        ? `the first ${w.first_months} months of the measurement period`
        : w.years_before
          ? `the measurement period or the ${w.years_before === 1 ? 'year' : `${w.years_before} years`} before`
          : 'the measurement period';
  return `${RELATION_TEXT[w.relation ?? 'during'] ?? w.relation} ${span}`;
}

function criteriaOf(m: ShippedMeasure, titles: ReadonlyMap<string, string>): MeasureCriterionJson[] {
  const used = new Map<string, string[]>();
  for (const r of m.model.rules)
    for (const c of r.conditions) used.set(String(c.parameter), [...new Set([...(used.get(String(c.parameter)) ?? []), r.id])]);
  return m.model.parameters.flatMap((p) => {
    const spec = (p.validation_rules as { criterion?: CriterionSpec } | undefined)?.criterion;
    if (!spec) return [];
    const part = (c: Criterion): MeasureCriterionPartJson => ({
      resource_type: c.resource_type,
      value_sets: [...(c.value_sets ?? []), ...(c.has_code?.value_sets ?? [])].map((url) => ({
        oid: oidOf(url),
        title: titles.get(url) ?? oidOf(url),
      })),
      codes: [...(c.codes ?? []), ...(c.has_code?.codes ?? [])],
      statuses: [...(c.statuses ?? [])],
      window: windowText(c),
      take: c.take,
    });
    return [
      {
        id: p.id,
        display_name: p.display_name,
        data_type: p.data_type,
        unit: p.data_type === 'number' ? unitDisplay(p.units ?? null) || null : null,
        text: criterionText(spec, { valueSetTitles: titles }),
        parts: (isAnyOf(spec) ? spec.any_of : [spec]).map(part),
        used_by: used.get(p.id) ?? [],
      },
    ];
  });
}

/** Each value set the measure names: its codes now against the shipped expansion. */
function valueSetsOfMeasure(m: ShippedMeasure, codes: Codes, shipped: Codes, titles: ReadonlyMap<string, string>): MeasureValueSetJson[] {
  return valueSetsOf(m).map((url) => {
    const now = new Set(codes.get(url) ?? []);
    const was = shipped.has(url) ? new Set(shipped.get(url)) : null;
    return {
      url,
      oid: oidOf(url),
      title: titles.get(url) ?? oidOf(url),
      codes: now.size,
      shipped_codes: was ? was.size : null,
      added: was ? [...now].filter((c) => !was.has(c)).length : now.size,
      removed: was ? [...was].filter((c) => !now.has(c)).length : 0,
    };
  });
}

/** The designer's static analysis, population by population: the rules of one population are alternatives, like a rule set's. */
export function analysisOf(m: ShippedMeasure): MeasureDesignJson['analysis'] {
  const byId = new Map(m.model.rules.map((r) => [r.id, r]));
  const findings = POPULATIONS.flatMap(({ code, label }) => {
    const rules = (m.model.populations[code] ?? []).map((id) => byId.get(id)).filter((r): r is EngineRule => !!r);
    // A population rule decides membership and never advises, so "no actions" is not a finding here.
    const found = rules.length ? analyzeRuleSet(rules, m.model.parameters).filter((f) => f.code !== 'no_actions') : [];
    return found.map((f) => ({ ...f, population: label }));
  });
  const summary = { error: 0, warning: 0, info: 0 };
  for (const f of findings) summary[f.severity] += 1;
  return { summary, findings };
}

export function measureDesign(d: DesignInputs): MeasureDesignJson {
  const { measure: m, codes, shippedCodes, titles, deck } = d;
  const shipped = d.shipped ?? m;
  const valueSets = valueSetsOfMeasure(m, codes, shippedCodes, titles);
  const local = m.local
    ? [`Population rules changed locally: version ${m.local.label}, published ${m.local.published_at.slice(0, 10)} (${m.local.note})`]
    : [];
  const changes = valueSets
    .filter((v) => v.added || v.removed)
    .map((v) =>
      v.shipped_codes === null
        ? `${v.title} (${v.oid}): loaded with ${v.codes} codes; the product ships none`
        : `${v.title} (${v.oid}): ${v.codes} codes loaded, ${v.shipped_codes} shipped (${v.added} added, ${v.removed} removed)`,
    )
    .concat(local);
  const year = d.today.getUTCFullYear();
  return {
    id: m.id,
    identifier: m.identifier,
    title: m.title,
    source: m.source,
    improvement_notation: m.improvement_notation,
    goal: m.goal,
    score_meaning: m.score_meaning,
    measurement_period: {
      default: 'calendar_year',
      start: `${year}-01-01`,
      end: `${year}-12-31`,
      text: `A calendar year (${year} unless a report names another period): each criterion's window is taken from it.`,
    },
    version: { hash: measureVersion(m, codes), shipped_hash: measureVersion(shipped, shippedCodes), changes, value_sets: valueSets },
    populations: populationsOf(m),
    criteria: criteriaOf(m, titles),
    analysis: analysisOf(m),
    vignettes: {
      available: d.decksAvailable && !!deck?.deck,
      deck: deck?.deck ?? null,
      agreed: deck?.agreed ?? 0,
      total: deck?.cases.length ?? 0,
      cases: deck?.cases ?? [],
    },
    published: d.published ?? shippedVersionJson(m.id, true),
    draft: d.draft ?? null,
  };
}

/** The list row of a measure, from its design. */
export function designSummary(d: MeasureDesignJson): MeasureDesignSummaryJson {
  return {
    id: d.id,
    identifier: d.identifier,
    title: d.title,
    version: d.version.hash,
    changed_since_shipped: d.version.hash !== d.version.shipped_hash,
    rule_count: d.populations.reduce((n, p) => n + p.rules.length, 0),
    criterion_count: d.criteria.length,
    findings: d.analysis.summary,
    vignettes: { agreed: d.vignettes.agreed, total: d.vignettes.total },
    published_version: d.published.label,
    has_draft: !!d.draft,
  };
}
