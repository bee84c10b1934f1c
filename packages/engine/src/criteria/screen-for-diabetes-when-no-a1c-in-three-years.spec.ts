import { anObservation } from '../testing/records';
import { prepareCriterion } from './evaluate';

// ADA 2026 §2: test at least every 3 years. "Any A1C in 3 years" is the criterion a screening rule reads.
const NOW = Date.parse('2026-11-26T12:00:00Z');
const anyA1c = prepareCriterion({
  resource_type: 'Observation',
  codes: ['http://loinc.org|4548-4'],
  window: { anchor: 'now', days: 1095 },
  take: 'exists',
});

describe('screen for diabetes when no A1C in three years', () => {
  it('an A1C two years ago: screened', () => {
    expect(anyA1c.evaluate([anObservation('4548-4', 5.4, '%', '2024-12-01')], { now: NOW }).value).toBe(true);
  });

  it('the last A1C four years ago: due', () => {
    expect(anyA1c.evaluate([anObservation('4548-4', 5.4, '%', '2022-10-01')], { now: NOW }).value).toBe(false);
  });

  it('an A1C that was drawn but has no result still shows the test was done', () => {
    expect(anyA1c.evaluate([anObservation('4548-4', null, '', '2025-06-01')], { now: NOW }).value).toBe(true);
  });

  it("for a yes/no input, an A1C in % or an IFCC result in mmol/mol is a test done, whatever the input's unit", () => {
    const yesNo = prepareCriterion(
      {
        resource_type: 'Observation',
        codes: ['http://loinc.org|4548-4', 'http://loinc.org|59261-8'],
        window: { anchor: 'now', days: 1095 },
        take: 'exists',
      },
      { scale: { unit: '', min: null, max: null, conversions: [] } },
    );
    const r = yesNo.evaluate([anObservation('59261-8', 40, 'mmol/mol', '2025-03-01'), anObservation('4548-4', 5.6, '%', '2024-01-10')], {
      now: NOW,
    });
    expect(r.value).toBe(true);
    expect(r.set_aside).toEqual([]);
  });

  it('a cancelled order is not a test', () => {
    expect(anyA1c.evaluate([anObservation('4548-4', 5.4, '%', '2025-06-01', { status: 'cancelled' })], { now: NOW }).value).toBe(false);
  });
});
