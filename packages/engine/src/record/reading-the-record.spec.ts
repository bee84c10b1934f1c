import { aParameter, checkCondition } from '../testing/builders';
import { inParameterUnit, isUnreadable, readHistory, type ParameterScale } from './observations';
import { readCodes, searchCodes, searchKey, codeForUnit } from './codes';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const day = (iso: string) => `${iso}T08:00:00Z`;

function obs(code: string, value: number | null, unit: string, when: string | null, over: Record<string, unknown> = {}) {
  return {
    resourceType: 'Observation',
    id: `${code}-${when}-${value}`,
    status: 'final',
    subject: { reference: 'Patient/p1' },
    code: { coding: [{ system: 'http://loinc.org', code }] },
    ...(when ? { effectiveDateTime: when } : {}),
    ...(value === null ? {} : { valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit } }),
    ...over,
  };
}

const HBA1C: ParameterScale = {
  unit: '%',
  min: 3,
  max: 20,
  conversions: [
    {
      code: 'mmol/mol',
      factor: 0.09148,
      offset: 2.152,
      equivalents: [
        [39, 5.7],
        [48, 6.5],
        [53, 7.0],
      ],
    },
  ],
};
const EGFR: ParameterScale = { unit: 'mL/min/{1.73_m2}', min: 0, max: 200, conversions: [] };
const SBP: ParameterScale = { unit: 'mm[Hg]', min: 50, max: 300, conversions: [] };

describe('reading a history of Observations', () => {
  it('only final, amended and corrected results count: an entered-in-error latest result no longer hides a valid older one', () => {
    const h = readHistory(
      [
        obs('4548-4', 9.9, '%', day('2026-11-20'), { status: 'entered-in-error' }),
        obs('4548-4', 8.8, '%', day('2026-11-19'), { status: 'preliminary' }),
        obs('4548-4', 7.7, '%', day('2026-11-18'), { status: 'cancelled' }),
        obs('4548-4', 6.1, '%', day('2026-11-10'), { status: 'amended' }),
        obs('4548-4', 5.9, '%', day('2026-10-01'), { status: 'corrected' }),
      ],
      ['4548-4'],
      NOW,
    );
    expect(h.results.map((r) => r.value)).toEqual([6.1, 5.9]);
  });

  it('an A1C dated 2030 is never the latest: it is returned apart, to be listed as future-dated', () => {
    const h = readHistory([obs('4548-4', 9.1, '%', '2030-01-01'), obs('4548-4', 6.0, '%', day('2026-11-01'))], ['4548-4'], NOW);
    expect(h.results.map((r) => r.value)).toEqual([6.0]);
    expect(h.future.map((r) => [r.value, new Date(r.at).toISOString().slice(0, 10)])).toEqual([[9.1, '2030-01-01']]);
  });

  it('a result a minute ahead of our clock (clock drift) is still now, not future-dated', () => {
    const h = readHistory([obs('4548-4', 6.0, '%', new Date(NOW + 60_000).toISOString())], ['4548-4'], NOW);
    expect(h.results).toHaveLength(1);
  });

  it('the date is effectiveDateTime, else a period end, else issued; a result with none is kept apart as undated', () => {
    const h = readHistory(
      [
        obs('4548-4', 6.0, '%', null, { effectivePeriod: { start: day('2026-10-01'), end: day('2026-10-02') } }),
        obs('4548-4', 6.1, '%', null, { issued: day('2026-09-01') }),
        obs('4548-4', 6.2, '%', null),
      ],
      ['4548-4'],
      NOW,
    );
    expect(h.results.map((r) => [r.value, new Date(r.at).toISOString().slice(0, 10)])).toEqual([
      [6.0, '2026-10-02'],
      [6.1, '2026-09-01'],
    ]);
    expect(h.undated.map((r) => r.value)).toEqual([6.2]);
  });

  it('a blood pressure recorded as the panel 85354-9 is read from its systolic component', () => {
    const panel = {
      ...obs('85354-9', null, '', day('2026-11-22')),
      component: [
        { code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] }, valueQuantity: { value: 182, code: 'mmHg' } },
        { code: { coding: [{ system: 'http://loinc.org', code: '8462-4' }] }, valueQuantity: { value: 95, code: 'mmHg' } },
      ],
    };
    const [systolic] = readHistory([panel], ['8480-6'], NOW).results;
    expect(systolic).toMatchObject({ code: '8480-6', value: 182, unit: 'mmHg' });
    // The EHR's spelling mmHg is the UCUM mm[Hg].
    expect(inParameterUnit(systolic, SBP)).toEqual({ value: 182, given: 182, unit: 'mm[Hg]', converted: false });
  });

  it('an IFCC HbA1c under 59261-8 is read for the HbA1c parameter (4548-4), and 48 mmol/mol is exactly 6.5 %', () => {
    const [ifcc] = readHistory([obs('59261-8', 48, 'mmol/mol', day('2026-11-01'))], readCodes('4548-4'), NOW).results;
    expect(inParameterUnit(ifcc, HBA1C)).toEqual({ value: 6.5, given: 48, unit: 'mmol/mol', converted: true });
    expect(searchCodes('4548-4')).toEqual(['4548-4', '59261-8']);
    expect(searchKey('59261-8')).toBe(searchKey('4548-4'));
    expect(searchCodes('8462-4')).toEqual(['8462-4', '85354-9']);
  });

  it('the export code follows the unit: 4548-4 for %, 59261-8 for mmol/mol, never 4548-4 with a mmol/mol value', () => {
    expect(codeForUnit('4548-4', '%')).toBe('4548-4');
    expect(codeForUnit('4548-4', 'mmol/mol')).toBe('59261-8');
    expect(codeForUnit('59261-8', '%')).toBe('4548-4');
    expect(codeForUnit('1558-6', 'mmol/L')).toBe('1558-6');
  });
});

describe('a result in the parameter unit, or set aside with the reason', () => {
  const one = (value: number | null, unit: string, over: Record<string, unknown> = {}) =>
    readHistory([obs('4548-4', value, unit, day('2026-11-01'), over)], ['4548-4'], NOW).results[0];

  it('an A1C sent as 48 "%" is outside the plausible range 3 to 20 %', () => {
    expect(inParameterUnit(one(48, '%'), HBA1C)).toEqual({ problem: 'outside the plausible range 3 to 20 %' });
  });

  it('a unit the parameter cannot convert, a value without a number, or a unit outside UCUM is set aside, never guessed', () => {
    expect(inParameterUnit(one(126, 'mg/dL'), HBA1C)).toEqual({ problem: 'a unit that cannot be converted to %' });
    expect(inParameterUnit(one(null, '%', { dataAbsentReason: { text: 'error' } }), HBA1C)).toEqual({ problem: 'no numeric value' });
    const local = one(6.1, '%');
    expect(isUnreadable(inParameterUnit({ ...local, unreadable: 'a unit outside UCUM (http://example.org/units)' }, HBA1C))).toBe(true);
    expect(isUnreadable(inParameterUnit(one(6.1, '%', { valueQuantity: { value: 6, comparator: '~' } }), HBA1C))).toBe(true);
  });

  it('eGFR "< 15" is the interval below 15: the rule eGFR < 15 fires (G5, critical) and eGFR < 30 also holds', () => {
    const r = readHistory(
      [obs('62238-1', null, '', day('2026-11-20'), { valueQuantity: { value: 15, comparator: '<', unit: 'mL/min/1.73m2' } })],
      ['62238-1'],
      NOW,
    ).results[0];
    const read = inParameterUnit(r, EGFR);
    expect(read).toEqual({
      value: { type: 'range', min: null, max: 15, min_inclusive: true, max_inclusive: false },
      given: 15,
      unit: 'mL/min/{1.73_m2}',
      converted: false,
    });
    const egfr = aParameter('egfr', 'lab_range', { units: 'mL/min/{1.73_m2}' });
    const value = (read as { value: unknown }).value;
    expect(checkCondition(egfr, '<', 15, value)).toBe(true);
    expect(checkCondition(egfr, '<', 30, value)).toBe(true);
    expect(checkCondition(egfr, '>=', 15, value)).toBe(false);
    // "< 15" cannot say whether the value is below 10: undetermined, never a guess.
    expect(checkCondition(egfr, '<', 10, value)).toBe('unknown');
  });

  it('eGFR "> 90" is above 90: a rule eGFR < 60 does not fire, and "<=" / ">=" keep their end', () => {
    const egfr = aParameter('egfr', 'lab_range');
    const above = inParameterUnit(
      { id: null, code: '62238-1', at: NOW, value: 90, comparator: '>', unit: 'mL/min/{1.73_m2}', unreadable: null },
      EGFR,
    );
    expect(checkCondition(egfr, '<', 60, (above as { value: unknown }).value)).toBe(false);
    expect(checkCondition(egfr, '>', 90, (above as { value: unknown }).value)).toBe(true);
    const atMost = inParameterUnit(
      { id: null, code: '62238-1', at: NOW, value: 15, comparator: '<=', unit: 'mL/min/{1.73_m2}', unreadable: null },
      EGFR,
    );
    expect(checkCondition(egfr, '<', 15, (atMost as { value: unknown }).value)).toBe('unknown');
  });
});
