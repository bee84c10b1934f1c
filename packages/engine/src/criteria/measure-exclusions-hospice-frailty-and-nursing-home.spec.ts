import { anEncounter, anObservation, aCondition, SNOMED } from '../testing/records';
import { prepareCriterion } from './evaluate';

// The exclusions CMS122/CMS165/CMS951 share (Hospice, AdvancedIllnessandFrailty): criteria over
// discharge dispositions, coded values, request intents and "not to be performed" flags.
const NOW = Date.parse('2026-11-26T12:00:00Z');
const PERIOD = { start: '2025-01-01', end: '2025-12-31' };
const ctx = { now: NOW, period: PERIOD };
const INPATIENT = `${SNOMED}|183452005`;
const HOSPICE_HOME = `${SNOMED}|428361000124107`;

describe('an inpatient stay discharged to hospice care', () => {
  const hospiceDischarge = prepareCriterion({
    resource_type: 'Encounter',
    codes: [INPATIENT],
    has_code: { element: 'discharge_disposition', codes: [HOSPICE_HOME] },
    window: { anchor: 'period', relation: 'ends_during' },
    take: 'exists',
  });
  const stay = (start: string, end: string, disposition: string) =>
    anEncounter('183452005', start, end, {
      hospitalization: { dischargeDisposition: { coding: [{ system: SNOMED, code: disposition }] } },
    });

  it('admitted in December 2024, discharged home to hospice in January 2025: counts (it ends in the period)', () => {
    expect(hospiceDischarge.evaluate([stay('2024-12-20T08:00:00Z', '2025-01-03T10:00:00Z', '428361000124107')], ctx).value).toBe(true);
  });

  it('discharged home without hospice: does not count', () => {
    expect(hospiceDischarge.evaluate([stay('2025-03-01T08:00:00Z', '2025-03-05T10:00:00Z', '306689006')], ctx).value).toBe(false);
  });
});

describe('the last housing status before the period ends', () => {
  const HOUSING = 'http://loinc.org|71802-3';
  const NURSING_HOME = `${SNOMED}|160734000`;
  const inNursingHome = prepareCriterion({
    resource_type: 'Observation',
    codes: [HOUSING],
    has_code: { element: 'value', codes: [NURSING_HOME] },
    window: { anchor: 'period', relation: 'ends_by_end' },
    take: 'latest_is',
  });
  const status = (code: string, when: string) =>
    anObservation('71802-3', null, '', when, { valueCodeableConcept: { coding: [{ system: SNOMED, code }] } });

  it('lives in a nursing home since 2024: true', () => {
    expect(inNursingHome.evaluate([status('160734000', '2024-06-01')], ctx).value).toBe(true);
  });

  it('moved home after the nursing home: the last status is not the nursing home', () => {
    expect(inNursingHome.evaluate([status('160734000', '2024-06-01'), status('160943002', '2025-08-01')], ctx).value).toBe(false);
  });

  it('a status recorded after the period does not decide it', () => {
    expect(inNursingHome.evaluate([status('160734000', '2024-06-01'), status('160943002', '2026-02-01')], ctx).value).toBe(true);
  });

  it('no housing status recorded: no last status says nursing home', () => {
    expect(inNursingHome.evaluate([], ctx).value).toBe(false);
  });
});

describe('a frailty device ordered in the period', () => {
  const DEVICE = `${SNOMED}|705417005`;
  const frailtyDevice = prepareCriterion({
    resource_type: 'DeviceRequest',
    codes: [DEVICE],
    intents: ['order'],
    exclude_do_not_perform: true,
    window: { anchor: 'period' },
    take: 'exists',
  });
  const order = (extra: Record<string, unknown>) => ({
    resourceType: 'DeviceRequest',
    id: 'dr1',
    status: 'completed',
    intent: 'order',
    codeCodeableConcept: { coding: [{ system: SNOMED, code: '705417005' }] },
    subject: { reference: 'Patient/p1' },
    authoredOn: '2025-11-01T23:59:00.000Z',
    ...extra,
  });
  const dnp = (value: boolean) => ({
    modifierExtension: [{ url: 'http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-doNotPerform', valueBoolean: value }],
  });

  it('a walker ordered in November counts', () => {
    expect(frailtyDevice.evaluate([order({})], ctx).value).toBe(true);
    expect(frailtyDevice.evaluate([order(dnp(false))], ctx).value).toBe(true);
  });

  it('an order marked "do not perform" does not', () => {
    expect(frailtyDevice.evaluate([order(dnp(true))], ctx).value).toBe(false);
  });

  it('a proposal is not an order', () => {
    expect(frailtyDevice.evaluate([order({ intent: 'proposal' })], ctx).value).toBe(false);
  });
});

describe('dementia medication active in the period or the year before', () => {
  const DONEPEZIL = 'http://www.nlm.nih.gov/research/umls/rxnorm|997223';
  const dementiaMedication = prepareCriterion({
    resource_type: 'MedicationRequest',
    codes: [DONEPEZIL],
    statuses: ['active'],
    intents: ['order'],
    window: { anchor: 'period', years_before: 1, relation: 'overlaps' },
    take: 'exists',
  });
  const rx = (authoredOn: string, supplyDays: number) => ({
    resourceType: 'MedicationRequest',
    id: 'mr1',
    status: 'active',
    intent: 'order',
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '997223' }] },
    subject: { reference: 'Patient/p1' },
    authoredOn,
    dispenseRequest: { expectedSupplyDuration: { value: supplyDays, system: 'http://unitsofmeasure.org', code: 'd' } },
  });

  it('a 90-day supply written in November 2023 reaches into 2024: counts', () => {
    expect(dementiaMedication.evaluate([rx('2023-11-15T00:00:00Z', 90)], ctx).value).toBe(true);
  });

  it('a 30-day supply that ran out in 2023: does not', () => {
    expect(dementiaMedication.evaluate([rx('2023-10-01T00:00:00Z', 30)], ctx).value).toBe(false);
  });
});

describe('an advanced illness diagnosed in the period or the year before', () => {
  const advancedIllness = prepareCriterion({
    resource_type: 'Condition',
    codes: [`${SNOMED}|254637007`],
    window: { anchor: 'period', years_before: 1, relation: 'starts_during' },
    take: 'exists',
  });

  it('diagnosed in 2024: counts', () => {
    expect(advancedIllness.evaluate([aCondition('254637007', '2024-04-01', 'active')], ctx).value).toBe(true);
  });

  it('diagnosed in 2022, still active: its prevalence did not start in the window', () => {
    expect(advancedIllness.evaluate([aCondition('254637007', '2022-04-01', 'active')], ctx).value).toBe(false);
  });
});

describe('laboratory results only', () => {
  const LAB = 'http://terminology.hl7.org/CodeSystem/observation-category|laboratory';
  const labA1c = prepareCriterion({
    resource_type: 'Observation',
    codes: ['http://loinc.org|4548-4'],
    categories: [LAB],
    window: { anchor: 'period' },
    take: 'exists',
  });
  const category = {
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
  };

  it('an A1C in the laboratory category counts, one without a category does not', () => {
    expect(labA1c.evaluate([anObservation('4548-4', 7.2, '%', '2025-05-01', category)], ctx).value).toBe(true);
    expect(labA1c.evaluate([anObservation('4548-4', 7.2, '%', '2025-05-01')], ctx).value).toBe(false);
  });
});
