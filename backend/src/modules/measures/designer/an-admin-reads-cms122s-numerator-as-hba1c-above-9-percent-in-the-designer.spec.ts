import type { ConformanceMeasureJson } from '@cds/contracts';
import { CMS122 } from '../cms122';
import { CMS165 } from '../cms165';
import { CMS951 } from '../cms951';
import { rule, valueSetsOf, type ShippedMeasure } from '../measure-content';
import { designSummary, measureDesign, type Codes } from './measure-design';

// Issue 21: each shipped measure is shown in the designer as a rule set of the product's own model,
// read from the same model the Panel evaluates.
const GLYCEMIC = 'http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.113883.3.464.1003.198.12.1013';
const codesOf = (m: ShippedMeasure): Codes => new Map(valueSetsOf(m).map((u) => [u, [`http://loinc.org|${u.length}`]]));
const design = (m: ShippedMeasure, over: Partial<Parameters<typeof measureDesign>[0]> = {}) =>
  measureDesign({
    measure: m,
    codes: codesOf(m),
    shippedCodes: codesOf(m),
    titles: new Map([[GLYCEMIC, 'HbA1c Laboratory Test']]),
    deck: null,
    decksAvailable: false,
    today: new Date('2026-11-27T06:00:00Z'),
    ...over,
  });

describe('CMS122 in the designer', () => {
  const d = design(CMS122);

  it('reads its initial population as adults 18 to 75 with diabetes and a visit, ages in years', () => {
    const ip = d.populations.find((p) => p.code === 'initial-population')!;
    expect(ip.rules.map((r) => r.conditions.map((c) => c.text))).toEqual([
      [
        'Age at the end of the measurement period ≥ 18 years',
        'Age at the end of the measurement period ≤ 75 years',
        'Qualifying outpatient encounter in the measurement period = Yes',
        'Diabetes during the measurement period = Yes',
      ],
    ]);
  });

  it('reads its numerator as any of: HbA1c above 9 %, a result without a value, or no test', () => {
    const num = d.populations.find((p) => p.code === 'numerator')!;
    expect(num.rules.map((r) => r.text)).toEqual([
      'Most recent HbA1c or GMI (lowest that day) > 9 %',
      'Most recent HbA1c or GMI recorded without a result = Yes',
      'Glycemic status assessment (HbA1c or GMI) in the measurement period = No',
    ]);
    expect(d.populations.map((p) => p.label)).toEqual(['Initial population', 'Denominator', 'Denominator exclusions', 'Numerator']);
  });

  it('names the record criterion behind the HbA1c: a final laboratory Observation of the value set, ending in the period, lowest on the latest day', () => {
    const c = d.criteria.find((x) => x.id === 'glycemic_status_lowest')!;
    expect(c.unit).toBe('%');
    expect(c.parts).toEqual([
      expect.objectContaining({
        resource_type: 'Observation',
        value_sets: [{ oid: '2.16.840.1.113883.3.464.1003.198.12.1013', title: 'HbA1c Laboratory Test' }],
        window: 'ends during the measurement period',
        take: 'lowest_on_latest_day',
        statuses: ['final', 'amended', 'corrected'],
      }),
    ]);
    expect(c.text).toContain('“HbA1c Laboratory Test”');
    expect(c.used_by).toEqual(['cms122-num-elevated']);
  });

  it('has the calendar year as its default measurement period', () => {
    expect(d.measurement_period).toMatchObject({ default: 'calendar_year', start: '2026-01-01', end: '2026-12-31' });
  });

  it('is the shipped version while the shipped value sets are loaded, and analyses with no finding', () => {
    expect(d.version.hash).toBe(d.version.shipped_hash);
    expect(d.version.changes).toEqual([]);
    expect(d.analysis.findings).toEqual([]);
    expect(designSummary(d)).toMatchObject({ changed_since_shipped: false, rule_count: 8, findings: { error: 0, warning: 0, info: 0 } });
  });
});

it('a newer HbA1c value set expansion is a new CMS122 version, and says what changed', () => {
  const codes = new Map(codesOf(CMS122));
  codes.set(GLYCEMIC, ['http://loinc.org|4548-4', 'http://loinc.org|17856-6']);
  const d = design(CMS122, { codes });
  expect(d.version.hash).not.toBe(d.version.shipped_hash);
  expect(d.version.changes).toEqual([
    'HbA1c Laboratory Test (2.16.840.1.113883.3.464.1003.198.12.1013): 2 codes loaded, 1 shipped (2 added, 1 removed)',
  ]);
  expect(designSummary(d).changed_since_shipped).toBe(true);
});

it('a numerator rule repeated in CMS122 is found by the designer analysis, under the numerator', () => {
  const twice = rule('cms122-num-elevated-again', 'HbA1c above 9 % again', 'numerator', [['glycemic_status_lowest', 'greater_than', 9]]);
  const model = {
    ...CMS122.model,
    rules: [...CMS122.model.rules, twice],
    populations: { ...CMS122.model.populations, numerator: [...CMS122.model.populations.numerator!, twice.id] },
  };
  const d = design({ ...CMS122, model });
  expect(d.analysis.findings.map((f) => [f.code, f.population])).toEqual([['duplicate_rule', 'Numerator']]);
});

it("CMS165's numerator reads its blood pressure in mmHg", () => {
  const num = design(CMS165).populations.find((p) => p.code === 'numerator')!;
  expect(num.rules[0].text).toMatch(/mmHg/);
});

it("CMS951's official cases are its vignettes, expected against computed", () => {
  const deck: ConformanceMeasureJson = {
    id: CMS951.id,
    identifier: 'CMS951',
    title: CMS951.title,
    deck: 'CMS951-kidney-health-evaluation',
    published_version: null,
    agreed: 1,
    cases: [
      {
        file: 'a.json',
        description: 'Numerator pass: eGFR and UACR in the period',
        period: { start: '2026-01-01', end: '2026-12-31' },
        expected: { numerator: 1 },
        actual: { numerator: 1 },
        agrees: true,
      },
    ],
  };
  const d = design(CMS951, { deck, decksAvailable: true });
  expect(d.vignettes).toMatchObject({ available: true, agreed: 1, total: 1, deck: 'CMS951-kidney-health-evaluation' });
  expect(design(CMS951).vignettes).toMatchObject({ available: false, total: 0, cases: [] });
});
