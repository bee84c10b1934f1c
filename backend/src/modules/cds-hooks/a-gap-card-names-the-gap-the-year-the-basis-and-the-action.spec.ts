import { prepareMeasure } from '@cds/engine';
import { shippedValueSets } from '../records';
import { codesOf } from '../records/value-set-codes';
import { SHIPPED_MEASURES } from '../measures/content';
import { coverageOf, currentYear, measureAtCare, measureNeedsOf } from './measure-gaps';

const valueSets = new Map(shippedValueSets().map((v) => [String(v.url), codesOf(v)] as const));
const [CMS122, CMS951, CMS165] = ['CMS122', 'CMS951', 'CMS165'].map((id) => SHIPPED_MEASURES.find((m) => m.identifier === id)!);
const NOW = Date.parse('2026-11-26T12:00:00Z');
const PERIOD = currentYear(new Date(NOW));
const SNOMED = 'http://snomed.info/sct';
const LOINC = 'http://loinc.org';
const ref = { reference: 'Patient/p1' };
const patient = { resourceType: 'Patient', id: 'p1', birthDate: '1966-03-15' };
const diabetes = {
  resourceType: 'Condition',
  id: 'dm',
  subject: ref,
  clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
  code: { coding: [{ system: SNOMED, code: '44054006', display: 'Diabetes mellitus type 2 (disorder)' }] },
  onsetDateTime: '2026-01-01',
};
const visit = {
  resourceType: 'Encounter',
  id: 'visit',
  subject: ref,
  status: 'finished',
  class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' },
  type: [{ coding: [{ system: SNOMED, code: '185460008', display: 'Home visit request by patient (procedure)' }] }],
  period: { start: '2026-05-04T10:00:00Z', end: '2026-05-04T10:30:00Z' },
};
const egfr = {
  resourceType: 'Observation',
  id: 'egfr',
  subject: ref,
  status: 'final',
  code: { coding: [{ system: LOINC, code: '48642-3' }] },
  effectiveDateTime: '2026-05-04T10:00:00Z',
  valueQuantity: { value: 72, unit: 'mL/min/{1.73_m2}', system: 'http://unitsofmeasure.org', code: 'mL/min/{1.73_m2}' },
};
const kidney = prepareMeasure(CMS951.model, valueSets);

describe("what a hook call reads for the measures' inputs", () => {
  const needs = measureNeedsOf(SHIPPED_MEASURES, valueSets);
  const inputs = (m: typeof CMS122) => needs.find((n) => n.measure === m)!.inputs;

  it('hospice care (any of six kinds of record) is read by each search its branches need', () => {
    const hospice = inputs(CMS951).find((i) => i.parameter_id === 'hospice')!;
    const keys = hospice.searches.map((s) => s.key);
    for (const type of ['Encounter', 'ServiceRequest', 'Procedure', 'Condition']) expect(keys).toContain(`hist-${type}`);
    expect(keys.some((k) => k.startsWith('hist-45755-6'))).toBe(true);
    expect(hospice.unsearchable).toBeUndefined();
  });

  it('age is read from the Patient; a blood pressure reading with the Encounters (readings in hospital do not count)', () => {
    expect(inputs(CMS951).find((i) => i.parameter_id === 'age_at_period_start')).toMatchObject({ patient: true, searches: [] });
    const systolic = inputs(CMS165).find((i) => i.parameter_id === 'systolic_lowest')!;
    expect(systolic.searches.map((s) => s.key)).toEqual(['hist-8480-6', 'hist-Encounter']);
  });

  it('an input whose search failed is unread; one stopped at a page is partial; the others are whole', () => {
    const n = needs.find((x) => x.measure === CMS951)!;
    const egfrKey = n.inputs.find((i) => i.parameter_id === 'egfr_done')!.searches[0].key;
    const coverage = coverageOf(n, new Map([[egfrKey, 'failed' as const]]), true);
    expect(coverage.get('egfr_done')).toBe('unread');
    expect(coverage.get('age_at_period_start')).toBeUndefined();
    // Searches never run (another measure's) count as not read.
    expect(coverage.get('active_diabetes')).toBe('unread');
    expect(coverageOf(n, new Map([[egfrKey, 'partial' as const]]), false).get('age_at_period_start')).toBe('unread');
  });
});

describe('a gap card', () => {
  it('a 60-year-old with diabetes and a visit this year, no eGFR or UACR: the gap, the year, the basis with dates, the action, the source', () => {
    const record = [patient, diabetes, visit];
    const at = measureAtCare(CMS951, kidney.evaluate(record, PERIOD, NOW), record, PERIOD);
    expect(at && 'card' in at).toBe(true);
    const card = (at as { card: { summary: string; indicator: string; source: { label: string }; detail: string } }).card;
    expect(card.summary).toBe('Gap in care: no kidney health evaluation (eGFR and UACR) in 2026');
    expect(card.indicator).toBe('warning');
    expect(card.source.label).toBe('CMS951v2 (2024 QI-Core eCQM)');
    expect(card.detail).toContain('Condition/dm Diabetes mellitus type 2 (disorder) (2026-01-01)');
    expect(card.detail).toContain('Encounter/visit Home visit request by patient (procedure) (2026-05-04)');
    expect(card.detail).toContain('- Order eGFR and UACR');
    expect(card.detail).toContain('Age at the start of the measurement period: 59 years — Patient birth date 1966-03-15');
    expect(card.detail).not.toContain('- Denominator');
    expect(card.detail).toContain('- Numerator (not met)\n  - eGFR with a result in the measurement period: No');
    expect(card.detail).toContain(
      'Measurement period 2026-01-01 to 2026-12-31. Source: CMS951v2 (2024 QI-Core eCQM), measure KidneyHealthEvaluationFHIR.',
    );
  });

  it('with an eGFR but no UACR: only the UACR is missing', () => {
    const record = [patient, diabetes, visit, egfr];
    const at = measureAtCare(CMS951, kidney.evaluate(record, PERIOD, NOW), record, PERIOD) as { card: { summary: string; detail: string } };
    expect(at.card.summary).toBe('Gap in care: kidney health evaluation incomplete: no UACR in 2026');
    expect(at.card.detail).toContain('- Order UACR');
  });

  it('an eGFR the record could not be read for: a gap only if the UACR is found missing; with both unread, no card but a line for the info card', () => {
    const record = [patient, diabetes, visit];
    const outcome = kidney.evaluate(record, PERIOD, NOW, new Map([['egfr_done', 'unread']]));
    // The UACR is found missing, so the gap holds whatever the eGFR: only a card that can be wrong is held back.
    expect(measureAtCare(CMS951, outcome, record, PERIOD)).toMatchObject({
      card: { summary: 'Gap in care: kidney health evaluation incomplete: no UACR in 2026' },
    });
    const both = kidney.evaluate(
      record,
      PERIOD,
      NOW,
      new Map([
        ['egfr_done', 'unread'],
        ['uacr_done', 'unread'],
      ]),
    );
    expect(measureAtCare(CMS951, both, record, PERIOD)).toEqual({
      undetermined: expect.stringMatching(
        /^Gap in care for CMS951 \(Kidney Health Evaluation\) not determined from the record read: .*eGFR/,
      ),
    });
  });

  it('outside the measure (no diabetes), or excluded: nothing', () => {
    expect(measureAtCare(CMS951, kidney.evaluate([patient, visit], PERIOD, NOW), [patient, visit], PERIOD)).toBeNull();
    const hospice = { ...diabetes, id: 'hospice', code: { coding: [{ system: SNOMED, code: '170935008' }] } };
    const record = [patient, diabetes, visit, hospice];
    expect(measureAtCare(CMS951, kidney.evaluate(record, PERIOD, NOW), record, PERIOD)).toBeNull();
  });

  it("each measure's gap in a physician's words", () => {
    expect(CMS122.gapAtCare({ glycemic_status_done: true, glycemic_status_without_result: false, glycemic_status_lowest: 9.4 })).toEqual({
      gap: 'most recent HbA1c 9.4 % (above 9 %)',
      action: 'Intensify therapy; repeat HbA1c',
    });
    expect(CMS122.gapAtCare({ glycemic_status_done: false })).toEqual({ gap: 'no HbA1c or GMI', action: 'Order HbA1c' });
    expect(CMS165.gapAtCare({ systolic_recorded: true, diastolic_recorded: true, systolic_lowest: 152, diastolic_lowest: 94 }).gap).toBe(
      'blood pressure not controlled (most recent 152/94 mmHg)',
    );
    expect(CMS165.gapAtCare({ systolic_recorded: false, diastolic_recorded: false }).action).toBe('Measure blood pressure');
  });
});
