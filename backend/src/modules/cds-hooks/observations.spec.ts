import type { EngineParameter } from '@cds/engine';
import { DomainError } from '../../common/errors';
import { bundleResources, latestValue, lookbackDays } from './observations';

const NOW = new Date('2026-11-23T12:00:00Z');
const glucose: EngineParameter = {
  id: 'p-fpg',
  name: 'fasting_glucose',
  display_name: 'Fasting Glucose',
  data_type: 'lab_range',
  units: 'mg/dL',
  validation_rules: { min: 20, max: 800, decimals: 0, units_accepted: [{ code: 'mmol/L', factor: 18 }] },
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

const read = (list: Record<string, unknown>[], p = glucose) => latestValue('obs-1558-6', list, 'p1', p, '1558-6', NOW);
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

  it('refuses what would give a wrong card: unconvertible unit, non-UCUM system, implausible value, another patient', () => {
    expect(codeOf(() => read([obs({ valueQuantity: { value: 1.2, system: 'http://unitsofmeasure.org', code: 'g/L' } })]))).toBe(
      'unit_not_accepted',
    );
    expect(codeOf(() => read([obs({ valueQuantity: { value: 7.5, system: 'http://example.org/units', code: 'mmol/L' } })]))).toBe(
      'unit_not_accepted',
    );
    expect(codeOf(() => read([obs({ valueQuantity: { value: 900, code: 'mg/dL' } })]))).toBe('out_of_range');
    expect(codeOf(() => read([obs({ subject: { reference: 'Patient/p2' } })]))).toBe('invalid_prefetch');
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
