import type { EngineParameter } from '@cds/engine';
import { DomainError } from '../../common/errors';
import { bundleResources, checkSubjects, historyOf, lookbackDays, readParameter, readParameterWithHistory } from './observations';

const NOW = new Date('2026-11-23T12:00:00Z');
const glucose: EngineParameter = {
  id: 'p-fpg',
  name: 'fasting_glucose',
  display_name: 'Fasting Glucose',
  data_type: 'lab_range',
  units: 'mg/dL',
  validation_rules: {
    min: 20,
    max: 800,
    decimals: 0,
    units_accepted: [
      {
        code: 'mmol/L',
        factor: 18,
        equivalents: [
          [3.0, 54],
          [3.9, 70],
          [5.6, 100],
          [7.0, 126],
        ],
      },
    ],
  },
};

const obs = (over: Record<string, unknown> = {}) => ({
  resourceType: 'Observation',
  id: 'o1',
  status: 'final',
  subject: { reference: 'Patient/p1' },
  code: { coding: [{ system: 'http://loinc.org', code: '1558-6' }] },
  effectiveDateTime: '2026-11-20T08:00:00Z',
  valueQuantity: { value: 7.5, system: 'http://unitsofmeasure.org', code: 'mmol/L' },
  ...over,
});

const read = (list: Record<string, unknown>[], p = glucose) => readParameter(list, p, '1558-6', NOW).outcome;
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as DomainError).code;
  }
  return null;
};

describe('reading the latest Observation for a parameter', () => {
  it('converts mmol/L glucose to mg/dL (7.5 × 18 = 135) and keeps the value as given', () => {
    expect(read([obs()])).toMatchObject({ value: 135, entered_value: 7.5, unit: 'mmol/L', observation_id: 'o1' });
  });

  it('fasting glucose 7.0 mmol/L is the published 126 mg/dL, and 5.6 mmol/L is 100 mg/dL', () => {
    expect(read([obs({ valueQuantity: { value: 7.0, code: 'mmol/L' } })])).toMatchObject({ value: 126 });
    expect(read([obs({ valueQuantity: { value: 5.6, code: 'mmol/L' } })])).toMatchObject({ value: 100 });
  });

  it('glucose sent in mg/dl (not UCUM, but the common spelling) is read as mg/dL', () => {
    expect(read([obs({ valueQuantity: { value: 131, system: 'http://unitsofmeasure.org', code: 'mg/dl' } })])).toMatchObject({
      value: 131,
      unit: 'mg/dL',
    });
  });

  it('a result dated in the future is never the latest: the older one decides and the future one is listed', () => {
    const r = readParameter(
      [obs({ id: 'future', effectiveDateTime: '2030-01-01', valueQuantity: { value: 300, code: 'mg/dL' } }), obs()],
      glucose,
      '1558-6',
      NOW,
    );
    expect(r.outcome).toMatchObject({ value: 135, observation_id: 'o1' });
    expect(r.future).toEqual([{ id: 'future', text: 'Fasting Glucose 300 mg/dL dated 2030-01-01' }]);
  });

  it('skips preliminary and entered-in-error results; the latest usable one decides', () => {
    const v = read([
      obs({ id: 'old', effectiveDateTime: '2026-11-01T08:00:00Z', valueQuantity: { value: 99, code: 'mg/dL' } }),
      obs({ id: 'wrong', status: 'entered-in-error', effectiveDateTime: '2026-11-22T08:00:00Z' }),
      obs({ id: 'prelim', status: 'preliminary', effectiveDateTime: '2026-11-22T09:00:00Z' }),
    ]);
    expect(v).toMatchObject({ value: 99, observation_id: 'old' });
  });

  it('a value older than the lookback window is stale (unknown), with its date', () => {
    expect(read([obs({ effectiveDateTime: '2026-07-01T08:00:00Z' })])).toEqual({
      reason: 'stale',
      at: new Date('2026-07-01T08:00:00Z'),
      lookback_days: 90,
    });
    expect(read([obs({ effectiveDateTime: undefined })])).toEqual({ reason: 'no_date' });
    expect(read([])).toEqual({ reason: 'no_observation' });
  });

  it('lookback: the parameter own lookback_days wins over the default per LOINC code', () => {
    expect(lookbackDays(glucose, '1558-6')).toBe(90);
    expect(lookbackDays(glucose, '8480-6')).toBe(30);
    expect(lookbackDays(glucose, '0000-0')).toBe(365);
    expect(lookbackDays({ ...glucose, validation_rules: { lookback_days: 7 } }, '1558-6')).toBe(7);
  });

  it('sets aside (never guesses) what would give a wrong card: unconvertible unit, non-UCUM system, implausible value; an older value does not stand in', () => {
    const older = obs({ id: 'older', effectiveDateTime: '2026-11-10T08:00:00Z', valueQuantity: { value: 99, code: 'mg/dL' } });
    expect(read([obs({ valueQuantity: { value: 1.2, system: 'http://unitsofmeasure.org', code: 'g/L' } }), older])).toMatchObject({
      reason: 'set_aside',
      text: 'Fasting Glucose 1.2 g/L of 2026-11-20 set aside: a unit that cannot be converted to mg/dL',
    });
    expect(read([obs({ valueQuantity: { value: 7.5, system: 'http://example.org/units', code: 'mmol/L' } })])).toMatchObject({
      reason: 'set_aside',
      text: expect.stringContaining('a unit outside UCUM (http://example.org/units)'),
    });
    expect(read([obs({ valueQuantity: { value: 900, code: 'mg/dL' } })])).toMatchObject({
      reason: 'set_aside',
      text: 'Fasting Glucose 900 mg/dL of 2026-11-20 set aside: outside the plausible range 20 to 800 mg/dL',
    });
    expect(read([obs({ valueQuantity: undefined, valueString: 'hemolysed' })])).toMatchObject({
      reason: 'set_aside',
      text: expect.stringContaining('no numeric value'),
    });
  });

  it('another patient in the prefetch is an invalid request (400), not a value to set aside', () => {
    expect(codeOf(() => checkSubjects('obs-1558-6', [obs({ subject: { reference: 'Patient/p2' } })], 'p1'))).toBe('invalid_prefetch');
    expect(codeOf(() => checkSubjects('obs-1558-6', [obs()], 'p1'))).toBeNull();
  });

  it('a prefetch Bundle must hold only the expected resource type (an OperationOutcome entry is ignored)', () => {
    const bundle = (...resources: unknown[]) => ({
      resourceType: 'Bundle',
      type: 'searchset',
      entry: resources.map((resource) => ({ resource })),
    });
    expect(bundleResources('k', null, 'Observation')).toEqual([]);
    expect(bundleResources('k', bundle(obs(), { resourceType: 'OperationOutcome' }), 'Observation')).toHaveLength(1);
    expect(codeOf(() => bundleResources('k', bundle({ resourceType: 'Patient' }), 'Observation'))).toBe('invalid_prefetch');
    expect(codeOf(() => bundleResources('k', obs(), 'Observation'))).toBe('invalid_prefetch');
  });
});

describe('the reading and the history from one walk of the results', () => {
  it('are what reading the latest value and the history separately give, future-dated, comparator and unreadable results included', () => {
    const list = [
      obs(),
      obs({ id: 'o2', effectiveDateTime: '2026-10-01T08:00:00Z', valueQuantity: { value: 140, code: 'mg/dL' } }),
      obs({ id: 'o3', effectiveDateTime: '2026-12-20T08:00:00Z', valueQuantity: { value: 6.1, code: 'mmol/L' } }),
      obs({ id: 'o4', effectiveDateTime: '2026-09-01T08:00:00Z', valueQuantity: { value: 15, comparator: '<', code: 'mmol/L' } }),
      obs({ id: 'o5', effectiveDateTime: '2026-08-01T08:00:00Z', valueQuantity: { value: 9, code: 'g/L' } }),
      obs({ id: 'o6', effectiveDateTime: undefined }),
    ];
    const both = readParameterWithHistory(list, glucose, '1558-6', NOW, [100, 126]);
    expect(both.reading).toEqual(readParameter(list, glucose, '1558-6', NOW));
    expect(both.history).toEqual(historyOf(list, glucose, '1558-6', NOW, [100, 126]));
    expect(both.reading.future).toHaveLength(1);
    expect(both.history?.results.map((r) => r.at)).toEqual(['2026-11-20T08:00:00.000Z', '2026-10-01T08:00:00.000Z']);
    expect(both.history?.not_plotted).toBe(2);
  });
});
