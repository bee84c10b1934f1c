import type { FhirResourceJson } from '@cds/contracts';
import type { MeasureOutcome, PopulationCode } from '@cds/engine';
import type { ShippedMeasure } from './measure-content';

/** The populations a proportion measure reports, in FHIR's order. */
export const REPORTED: readonly PopulationCode[] = ['initial-population', 'denominator', 'denominator-exclusion', 'numerator'];
const POPULATION_SYSTEM = 'http://terminology.hl7.org/CodeSystem/measure-population';
const IMPROVEMENT_SYSTEM = 'http://terminology.hl7.org/CodeSystem/measure-improvement-notation';

export const measureUrl = (base: string, m: ShippedMeasure) => `${base}/api/fhir/Measure/${m.id}`;

/** The FHIR Measure resource of a shipped measure: its identity, scoring and population descriptions. */
export function measureResource(base: string, m: ShippedMeasure): FhirResourceJson {
  const rulesOf = (code: PopulationCode) =>
    (m.model.populations[code] ?? []).map((id) => m.model.rules.find((r) => r.id === id)?.name ?? id).join('; or ');
  return {
    resourceType: 'Measure',
    id: m.id,
    url: measureUrl(base, m),
    identifier: [{ system: 'https://cms.gov/eCQM', value: m.identifier }],
    name: m.id,
    // A published local edit is not the CMS measure as specified: it says which local version it is, and why.
    ...(m.local ? { version: m.local.label } : {}),
    title: m.local ? `${m.title} (local version ${m.local.version})` : m.title,
    status: 'active',
    description: m.local
      ? `Local version ${m.local.version} of ${m.identifier} (${m.title}), changed from the CMS specification on ${m.local.published_at.slice(0, 10)}: ${m.local.note}. Evaluated by DiabetesCDS's own criteria and rules. Source: ${m.source}.`
      : `${m.title} (${m.identifier}), evaluated by DiabetesCDS's own criteria and rules. Source: ${m.source}.`,
    scoring: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/measure-scoring', code: 'proportion' }] },
    improvementNotation: { coding: [{ system: IMPROVEMENT_SYSTEM, code: m.improvement_notation }] },
    group: [
      {
        population: REPORTED.filter((code) => m.model.populations[code]?.length || code === 'denominator').map((code) => ({
          code: { coding: [{ system: POPULATION_SYSTEM, code }] },
          description: rulesOf(code) || (code === 'denominator' ? 'The initial population' : ''),
          criteria: { language: 'text/plain', expression: rulesOf(code) || 'Initial Population' },
        })),
      },
    ],
  };
}

export interface ReportInput {
  base: string;
  measure: ShippedMeasure;
  period: { start: string; end: string };
  type: 'individual' | 'summary' | 'subject-list';
  subject?: string;
  outcomes: ReadonlyMap<string, MeasureOutcome>;
  now: Date;
}

/**
 * A MeasureReport: counts of patients definitely in each population (a population left undetermined
 * by an unreadable record counts in none, and is reported in an extension), the score for a summary,
 * each population's patients for a subject list, and the resources that decided an individual report.
 */
export function measureReport(input: ReportInput): FhirResourceJson {
  const { measure, outcomes } = input;
  const members = (code: PopulationCode) => [...outcomes].filter(([, o]) => o.populations[code] === true).map(([id]) => id);
  const undetermined = (code: PopulationCode) => [...outcomes].filter(([, o]) => o.populations[code] === 'unknown').length;
  const lists: FhirResourceJson[] = [];
  const population = REPORTED.map((code) => {
    const ids = members(code);
    const entry: Record<string, unknown> = { code: { coding: [{ system: POPULATION_SYSTEM, code }] }, count: ids.length };
    if (input.type === 'subject-list') {
      const listId = `${code}-subjects`;
      lists.push({
        resourceType: 'List',
        id: listId,
        status: 'current',
        mode: 'snapshot',
        entry: ids.map((id) => ({ item: { reference: `Patient/${id}` } })),
      });
      entry.subjectResults = { reference: `#${listId}` };
    }
    const open = undetermined(code);
    if (open) entry.extension = [{ url: `${input.base}/api/fhir/StructureDefinition/undetermined-count`, valueInteger: open }];
    return entry;
  });
  const count = (code: PopulationCode) => members(code).length;
  const eligible = count('denominator') - count('denominator-exclusion') - count('denominator-exception');
  const group: Record<string, unknown> = { population };
  if (input.type !== 'individual' && eligible > 0) group.measureScore = { value: Number((count('numerator') / eligible).toFixed(6)) };
  const report: FhirResourceJson = {
    resourceType: 'MeasureReport',
    ...(lists.length ? { contained: lists } : {}),
    status: 'complete',
    type: input.type,
    // A local version is named by its canonical version: `…/Measure/<id>|2 (local)`.
    measure: measure.local ? `${measureUrl(input.base, measure)}|${measure.local.label}` : measureUrl(input.base, measure),
    ...(input.subject ? { subject: { reference: input.subject } } : {}),
    date: input.now.toISOString(),
    period: input.period,
    improvementNotation: {
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/measure-improvement-notation', code: measure.improvement_notation }],
    },
    group: [group],
  };
  if (input.type === 'individual') {
    const only = [...outcomes.values()][0];
    const refs = new Set<string>();
    for (const r of Object.values(only?.inputs ?? {})) for (const e of r.evidence) if (e.id) refs.add(`${e.resource_type}/${e.id}`);
    if (refs.size) report.evaluatedResource = [...refs].sort().map((reference) => ({ reference }));
  }
  return report;
}
