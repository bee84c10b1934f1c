import { CMS122 } from './cms122';
import { CMS165 } from './cms165';
import { CMS951 } from './cms951';
import { draftRulesOf, localMeasure, staleRuleNames } from './local-version';
import { measureReport, measureResource } from './measure-report';
import { measureVersion } from './measure-version';
import { valueSetsOf, type ShippedMeasure } from './measure-content';

// Issue 21: a clinic publishes CMS122 with its numerator cut-point lowered from 9 % to 8 %. It is then a local
// version, not the CMS measure: its words state 8 %, and its FHIR identity says which version it is, and why.
const NOTE = 'Clinic goal: HbA1c above 8 % is poor control';
const at = new Date('2026-11-27T09:00:00Z');
const withCut = (m: ShippedMeasure, rule: string, value: number) =>
  draftRulesOf(m.model).map((r) => (r.id === rule ? { ...r, conditions: r.conditions.map((c) => ({ ...c, value })) } : r));
const local122 = localMeasure(CMS122, { version: 2, note: NOTE, published_at: at, rules: withCut(CMS122, 'cms122-num-elevated', 8) });
const codes = new Map(valueSetsOf(CMS122).map((u) => [u, ['http://loinc.org|4548-4']]));

it('the shipped rules sent back as a version are the shipped model: same measure version, nothing local in the words', () => {
  const same = localMeasure(CMS122, { version: 2, note: NOTE, published_at: at, rules: draftRulesOf(CMS122.model) });
  expect(same.model).toEqual(CMS122.model);
  expect(measureVersion(same, codes)).toBe(measureVersion(CMS122, codes));
  expect(same.goal).toBe(CMS122.goal);
});

it('CMS122 at 8 %: the goal, the score, the gap reason and the gap card state 8 %, never the shipped 9 %', () => {
  expect(local122.goal).toBe('Most recent HbA1c or GMI in the period at or below 8 %');
  expect(local122.title).toBe('Diabetes: Glycemic Status Assessment Greater Than 8%');
  expect(local122.gapReason({ glycemic_status_done: true, glycemic_status_lowest: 8.5 })).toBe(
    'Most recent HbA1c or GMI 8.5 % (above 8 %)',
  );
  expect(local122.gapAtCare({ glycemic_status_done: true, glycemic_status_lowest: 8.5 }).gap).toBe('most recent HbA1c 8.5 % (above 8 %)');
  expect(measureVersion(local122, codes)).not.toBe(measureVersion(CMS122, codes));
  expect(CMS122.goal).toBe('Most recent HbA1c or GMI in the period at or below 9 %');
});

it('its Measure and MeasureReport name the local version and the change note, not the CMS measure unchanged', () => {
  const measure = measureResource('https://cds.example.org', local122);
  expect(measure).toMatchObject({ version: '2 (local)', title: 'Diabetes: Glycemic Status Assessment Greater Than 8% (local version 2)' });
  expect(measure.description).toContain(`Local version 2 of CMS122`);
  expect(measure.description).toContain(NOTE);
  expect(measureResource('https://cds.example.org', CMS122)).not.toHaveProperty('version');
  const report = measureReport({
    base: 'https://cds.example.org',
    measure: local122,
    period: { start: '2026-01-01', end: '2026-12-31' },
    type: 'summary',
    outcomes: new Map(),
    now: at,
  });
  expect(report.measure).toBe(`https://cds.example.org/api/fhir/Measure/${CMS122.id}|2 (local)`);
});

it('a numerator whose cut-points disagree names no number; CMS165 at 130/80 says 130/80; CMS951 states none', () => {
  const rules = draftRulesOf(CMS122.model);
  const elevated = rules.find((r) => r.id === 'cms122-num-elevated')!;
  const two = [...rules, { ...elevated, id: 'again', conditions: [{ ...elevated.conditions[0], value: 10 }] }];
  const mixed = localMeasure(CMS122, { version: 3, note: NOTE, published_at: at, rules: two });
  expect(mixed.gapReason({ glycemic_status_done: true, glycemic_status_lowest: 9.5 })).toBe(
    'Most recent HbA1c or GMI 9.5 % (in the numerator)',
  );
  const bp = draftRulesOf(CMS165.model).map((r) =>
    r.id === 'cms165-num'
      ? {
          ...r,
          conditions: r.conditions.map((c) =>
            c.parameter === 'systolic_lowest' ? { ...c, value: 130 } : c.parameter === 'diastolic_lowest' ? { ...c, value: 80 } : c,
          ),
        }
      : r,
  );
  expect(localMeasure(CMS165, { version: 2, note: NOTE, published_at: at, rules: bp }).goal).toBe(
    'Most recent blood pressure in the period below 130/80 mmHg',
  );
  const kidney = localMeasure(CMS951, { version: 2, note: NOTE, published_at: at, rules: draftRulesOf(CMS951.model) });
  expect(kidney.goal).toBe(CMS951.goal);
  expect(kidney.source).toBe('Local version 2 of CMS951, changed from CMS951v2 (2024 QI-Core eCQM)');
});

it('a rule still named "> 9 %" while it compares with 8 is found, so its name never misstates the cut-point on a card', () => {
  const shipped = draftRulesOf(CMS122.model);
  const misnamed = withCut(CMS122, 'cms122-num-elevated', 8);
  expect(staleRuleNames(misnamed, shipped)).toEqual([
    { field: expect.stringMatching(/^rules\[\d+\]\.name$/), message: expect.stringContaining('says 9 but the rule now compares with 8') },
  ]);
  const renamed = misnamed.map((r) => (r.id === 'cms122-num-elevated' ? { ...r, name: 'Most recent HbA1c or GMI > 8 %' } : r));
  expect(staleRuleNames(renamed, shipped)).toEqual([]);
  expect(staleRuleNames(shipped, shipped)).toEqual([]);
});
