import { prepareCriterion, type Criterion, type CriterionContext, type ParameterScale } from '@cds/engine';

/**
 * The cost of reading the record over time (issue 20): the criteria a diabetes panel reads
 * (A1C latest and abnormal days, fasting glucose, blood pressure at the latest visit, eGFR
 * persistence, a screening look-back), prepared once and evaluated per patient over a history of
 * 10 results per code, against the same criteria over one result per code (what `_count=1`
 * prefetch gave) in the same process. CPU ns per patient; the ratio is what history costs.
 */
const LOINC = 'http://loinc.org';
const NOW = Date.parse('2026-11-26T12:00:00Z');
const scale = (unit: string, min: number, max: number): ParameterScale => ({ unit, min, max, conversions: [] });
const CRITERIA: { criterion: Criterion; scale?: ParameterScale; code: string; unit: string; around: number }[] = [
  {
    criterion: { resource_type: 'Observation', codes: [`${LOINC}|4548-4`], take: 'latest', window: { anchor: 'now', days: 90 } },
    scale: scale('%', 3, 20),
    code: '4548-4',
    unit: '%',
    around: 6.5,
  },
  {
    criterion: {
      resource_type: 'Observation',
      codes: [`${LOINC}|4548-4`],
      take: 'distinct_days',
      window: { anchor: 'now', days: 365 },
      where: { operator: '>=', value: 6.5 },
    },
    scale: scale('%', 3, 20),
    code: '4548-4',
    unit: '%',
    around: 6.5,
  },
  {
    criterion: { resource_type: 'Observation', codes: [`${LOINC}|1558-6`], take: 'latest', window: { anchor: 'now', days: 90 } },
    scale: scale('mg/dL', 20, 600),
    code: '1558-6',
    unit: 'mg/dL',
    around: 110,
  },
  {
    criterion: {
      resource_type: 'Observation',
      codes: [`${LOINC}|8480-6`],
      take: 'lowest_on_latest_day',
      window: { anchor: 'now', days: 30 },
    },
    scale: scale('mm[Hg]', 50, 300),
    code: '8480-6',
    unit: 'mm[Hg]',
    around: 135,
  },
  {
    criterion: { resource_type: 'Observation', codes: [`${LOINC}|98979-8`], take: 'days_persisting', where: { operator: '<', value: 60 } },
    scale: scale('mL/min/{1.73_m2}', 1, 200),
    code: '98979-8',
    unit: 'mL/min/{1.73_m2}',
    around: 60,
  },
  {
    criterion: { resource_type: 'Observation', codes: [`${LOINC}|4548-4`], take: 'exists', window: { anchor: 'now', days: 1095 } },
    code: '4548-4',
    unit: '%',
    around: 6.5,
  },
];

function record(perCode: number, rnd: () => number): unknown[] {
  const out: unknown[] = [];
  for (const c of new Map(CRITERIA.map((x) => [x.code, x])).values())
    for (let i = 0; i < perCode; i++)
      out.push({
        resourceType: 'Observation',
        id: `o-${c.code}-${i}`,
        status: rnd() < 0.95 ? 'final' : 'entered-in-error',
        code: { coding: [{ system: LOINC, code: c.code }] },
        effectiveDateTime: new Date(NOW - Math.floor(rnd() * 400) * 86_400_000).toISOString(),
        valueQuantity: {
          value: Math.round(c.around * (0.8 + rnd() * 0.4) * 10) / 10,
          unit: c.unit,
          system: 'http://unitsofmeasure.org',
          code: c.unit,
        },
      });
  return out;
}

export function runCriteriaBench(rnd: () => number, cpuNs: () => number, fmt: (n: number, digits?: number) => string): void {
  const prepared = CRITERIA.map((c) => prepareCriterion(c.criterion, { scale: c.scale }));
  const ctx: CriterionContext = { now: NOW };
  const patients = 2_000;
  const histories = {
    'one result per code': Array.from({ length: patients }, () => record(1, rnd)),
    '10 results per code': Array.from({ length: patients }, () => record(10, rnd)),
  };
  const pass = (records: unknown[][]) => {
    const start = cpuNs();
    for (const r of records) for (const p of prepared) p.evaluate(r, ctx);
    return (cpuNs() - start) / records.length;
  };
  for (const records of Object.values(histories)) for (let i = 0; i < 20; i++) pass(records);
  const best: Record<string, number> = {};
  for (let round = 0; round < 15; round++)
    for (const [name, records] of Object.entries(histories)) best[name] = Math.min(best[name] ?? Infinity, pass(records));
  console.log(
    `\n### Criteria over the record\n\n${CRITERIA.length} criteria (latest, abnormal days, lowest at the latest visit, persistence, exists), prepared once, per patient:\n`,
  );
  console.log('| history | µs CPU per patient | × one result per code |');
  console.log('|---|---:|---:|');
  const one = best['one result per code'];
  for (const [name, ns] of Object.entries(best)) console.log(`| ${name} | ${fmt(ns / 1000, 2)} | ${fmt(ns / one, 2)} |`);
}
